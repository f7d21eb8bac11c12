// Runs the Steps of a store's transaction (src/storage/steps.ts) against PostgreSQL: each query the work
// yields is awaited and its result fed back in (step.next), a failed one thrown back in (step.throw), all on
// one Kysely transaction, so the work's reads, decisions and writes commit together or not at all. The
// PostgreSQL stores (src/partners, src/billing) build their tables on the transaction and hand them to it.
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import type { Step } from './steps.js';

/** Runs `step` to its end, awaiting each promise it yields: its answer. */
export async function runSteps<T>(step: Step<T>): Promise<T> {
  let next = step.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = await next.value;
    } catch (error) {
      next = step.throw(error);
      continue;
    }
    next = step.next(answer);
  }
  return next.value;
}

/** A Step that answers what `query` resolves to (the PostgreSQL tables' queries). */
export function* awaited<T>(query: Promise<T>): Step<T> {
  return (yield query) as T;
}

/**
 * Runs `work` on tables made for one READ COMMITTED transaction (PostgreSQL's default: the race rules are
 * the tables' statements and locks), or for reads one REPEATABLE READ, read-only transaction (one state).
 */
export function stepTransaction<Tables, T>(
  db: Kysely<unknown>,
  mode: 'write' | 'read',
  tablesOf: (trx: Transaction<unknown>) => Tables,
  work: (tables: Tables) => Step<T>,
): Promise<T> {
  const builder = mode === 'write' ? db.transaction() : db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only');
  return builder.execute((trx) => runSteps(work(tablesOf(trx))));
}

/** A query's rows, as a Step on `trx`. */
export function* rowsOf<R>(trx: Transaction<unknown>, query: RawBuilder<unknown>): Step<R[]> {
  return (yield* awaited(query.execute(trx))).rows as R[];
}

/** A write's count of changed rows, as a Step on `trx`. */
export function* changedBy(trx: Transaction<unknown>, query: RawBuilder<unknown>): Step<number> {
  return affectedRows(yield* awaited(query.execute(trx)));
}

/** How many rows a raw write changed. */
export function affectedRows(result: { numAffectedRows?: bigint }): number {
  return Number(result.numAffectedRows ?? 0n);
}
