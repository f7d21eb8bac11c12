// One body of transaction code for both engines. A store's transaction hands its work a set of tables
// whose queries are Steps (generators): the work reads them with `yield*`, so it is written once, with
// its reads, decisions and writes in order. The SQLite tables answer at once and never yield, so the work
// runs to its end synchronously inside one better-sqlite3 transaction: no other code of the process can
// run between a read and the write that depends on it (an `await` there would let it). A PostgreSQL
// implementation yields each query's promise, and its transaction feeds each result back in (step.next) inside
// one database transaction.

/** A part of a transaction's work that answers T: yields the promises of its queries, or none (SQLite). */
export type Step<T> = Generator<Promise<unknown>, T, unknown>;

/** A Step that answers `value` without a query (the SQLite tables' answers, values already known). */
// eslint-disable-next-line require-yield -- it answers at once: that is the point
export function* answered<T>(value: T): Step<T> {
  return value;
}

/** Runs a step that must not yield (the SQLite tables): its answer, synchronously. */
export function runNow<T>(step: Step<T>): T {
  const next = step.next();
  if (!next.done) throw new Error('a SQLite transaction waited for a query: its tables must answer at once');
  return next.value;
}
