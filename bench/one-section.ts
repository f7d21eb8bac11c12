// What `npm run bench:partners` and `npm run bench:details` share: one section of `npm run bench` run alone
// on the same generated data (imported first if bench/out has no database of it yet), printed and written
// to its own results file. `npm run bench` puts the same sections in its RESULTS file.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureExtract } from './dataset.js';
import { benchMode, type BenchMode } from './mode.js';
import { timed } from './measure.js';

/** Runs `section` over the bench database; `command` is the npm script, `file` the results file in bench/. */
export function runOneSection(title: string, command: string, file: string, section: (db: string, mode: BenchMode) => Promise<string[]>): void {
  const main = async () => {
    const mode = benchMode();
    const data = await ensureExtract(mode.toilets, mode.otherNodes, console.log);
    if (!existsSync(data.db)) {
      const imported = await timed(process.execPath, [join(process.cwd(), 'dist', 'importer', 'cli.js'), data.pbf, '--db', data.db, '--quiet']);
      if (imported.code !== 0) throw new Error(`import failed:\n${imported.stderr}`);
    }
    const lines = await section(data.db, mode);
    const text = [`# ${title}`, '', `Command: \`npm run ${command}${mode.quick ? ' -- --quick' : ''}\` (${new Date().toISOString()}).`, ...lines].join('\n') + '\n';
    writeFileSync(join(process.cwd(), 'bench', file), text);
    console.log(text);
  };
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
