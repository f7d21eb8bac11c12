// node dist/bench/generate/cli.js OUT.osm.pbf [--toilets N] [--other-nodes M] [--seed S] [--replication-timestamp EPOCH_S]
// Writes a synthetic extract and prints what it holds (JSON), with the time taken and peak memory on stderr.
import { parseArgs } from 'node:util';
import { DEFAULT_REPLICATION_TIMESTAMP, DEFAULT_SEED, generateExtract } from './generate.js';

const USAGE = 'usage: cli.js OUT.osm.pbf [--toilets N (1000000)] [--other-nodes M (5000000)] [--seed S (1)] [--replication-timestamp EPOCH_S]';

function wholeNumber(value: string, name: string): number {
  const number = Number(value);
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(number)) throw new RangeError(`--${name} must be a whole number, got ${value}`);
  return number;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      toilets: { type: 'string', default: '1000000' },
      'other-nodes': { type: 'string', default: '5000000' },
      seed: { type: 'string', default: String(DEFAULT_SEED) },
      'replication-timestamp': { type: 'string', default: String(DEFAULT_REPLICATION_TIMESTAMP) },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length !== 1) {
    console.error(USAGE);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const started = performance.now();
  const stats = await generateExtract(positionals[0], {
    toilets: wholeNumber(values.toilets, 'toilets'),
    otherNodes: wholeNumber(values['other-nodes'], 'other-nodes'),
    seed: wholeNumber(values.seed, 'seed'),
    replicationTimestamp: wholeNumber(values['replication-timestamp'], 'replication-timestamp'),
  });
  console.log(JSON.stringify(stats, null, 2));
  const seconds = (performance.now() - started) / 1000;
  console.error(`wrote ${positionals[0]} in ${seconds.toFixed(1)} s, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
