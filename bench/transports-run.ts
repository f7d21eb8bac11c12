// npm run bench:transports [-- --quick]: the node:http and uWS transports beside their bare ceilings
// (bench/transports.ts) on the bench's generated data; BENCH_BEFORE=<dist/src/main.js of an earlier build>
// adds that build's uWS service to the same rounds. Writes bench/TRANSPORTS-RESULTS.md.
import { runOneSection } from './one-section.js';
import { transportsSection } from './transports.js';

runOneSection('HTTP transports: node:http and uWS', 'bench:transports', 'TRANSPORTS-RESULTS.md', (db, mode) => transportsSection(db, mode, process.env.BENCH_BEFORE ?? null));
