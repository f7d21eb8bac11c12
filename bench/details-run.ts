// npm run bench:details [-- --quick]: only the toilet-details cost of `npm run bench` (bench/details.ts), on
// the same generated data (imported first if bench/out has no database of it yet); prints the section and
// writes it to bench/DETAILS-RESULTS.md. `npm run bench` puts the same section in its RESULTS file.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureExtract } from './dataset.js';
import { benchMode } from './mode.js';
import { timed } from './measure.js';
import { DETAILS_PAIRS, detailsCost, detailsCostLines } from './details.js';

async function main(): Promise<void> {
  const mode = benchMode();
  const data = await ensureExtract(mode.toilets, mode.otherNodes, console.log);
  if (!existsSync(data.db)) {
    const imported = await timed(process.execPath, [join(process.cwd(), 'dist', 'importer', 'cli.js'), data.pbf, '--db', data.db, '--quiet']);
    if (imported.code !== 0) throw new Error(`import failed:\n${imported.stderr}`);
  }
  const lines = detailsCostLines(await detailsCost(data.db, mode.taskMs, DETAILS_PAIRS));
  const text = [`# Toilet details cost`, '', `Command: \`npm run bench:details${mode.quick ? ' -- --quick' : ''}\` (${new Date().toISOString()}).`, ...lines].join('\n') + '\n';
  writeFileSync(join(process.cwd(), 'bench', 'DETAILS-RESULTS.md'), text);
  console.log(text);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
