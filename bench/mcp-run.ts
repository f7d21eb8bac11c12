// npm run bench:mcp [-- --quick]: the MCP fast path and SDK path side by side (bench/mcp-paths.ts) on the
// bench's generated data (imported first if bench/out has no database of it yet), with REST nearest;
// BENCH_BEFORE=<dist/src/main.js of an earlier build> adds REST nearest on that build, in the same rounds.
// Prints the section and writes it to bench/MCP-RESULTS.md; `npm run bench` puts it in RESULTS.md too.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureExtract } from './dataset.js';
import { benchMode } from './mode.js';
import { timed } from './measure.js';
import { wrkAvailable } from './http.js';
import { mcpPathsSection } from './mcp-paths.js';

async function main(): Promise<void> {
  if (!wrkAvailable()) throw new Error('wrk is not installed (apt-get install wrk)');
  const mode = benchMode();
  const data = await ensureExtract(mode.toilets, mode.otherNodes, console.log);
  if (!existsSync(data.db)) {
    const imported = await timed(process.execPath, [join(process.cwd(), 'dist', 'importer', 'cli.js'), data.pbf, '--db', data.db, '--quiet']);
    if (imported.code !== 0) throw new Error(`import failed:\n${imported.stderr}`);
  }
  const lines = await mcpPathsSection(data.db, mode.quick, process.env.BENCH_BEFORE ?? null);
  const text = ['# MCP over /mcp: fast path and SDK path', '', `Command: \`npm run bench:mcp${mode.quick ? ' -- --quick' : ''}\` (${new Date().toISOString()}), ${data.toilets.toLocaleString('en')} toilets.`, ...lines].join('\n') + '\n';
  writeFileSync(join(process.cwd(), 'bench', 'MCP-RESULTS.md'), text);
  console.log(text);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
