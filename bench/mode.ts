// The size and pace of a bench run, shared by `npm run bench` and the parts that also run alone
// (`npm run bench:partners`): full mode, or --quick for a shorter look at a tenth of the data.
import { parseArgs } from 'node:util';

export interface BenchMode {
  quick: boolean;
  toilets: number;
  otherNodes: number;
  /** How long each in-process task runs (tinybench), ms. */
  taskMs: number;
}

/** The mode the command line asks for (`--quick` or nothing). */
export function benchMode(): BenchMode {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
  return values.quick === true ? { quick: true, toilets: 100_000, otherNodes: 500_000, taskMs: 500 } : { quick: false, toilets: 1_000_000, otherNodes: 5_000_000, taskMs: 2000 };
}
