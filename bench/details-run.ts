// npm run bench:details [-- --quick]: only the toilet-details cost of `npm run bench` (bench/details.ts), on
// the same generated data; prints the section and writes it to bench/DETAILS-RESULTS.md.
import { runOneSection } from './one-section.js';
import { DETAILS_PAIRS, detailsCost, detailsCostLines } from './details.js';

runOneSection('Toilet details cost', 'bench:details', 'DETAILS-RESULTS.md', async (db, mode) => detailsCostLines(await detailsCost(db, mode.taskMs, DETAILS_PAIRS)));
