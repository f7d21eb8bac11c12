// npm run bench:partners [-- --quick]: only the partner-listing cost of `npm run bench` (bench/partners.ts),
// on the same generated data; prints the section and writes it to bench/PARTNERS-RESULTS.md.
import { runOneSection } from './one-section.js';
import { PARTNER_PAIRS, partnerCost, partnerCostLines } from './partners.js';

runOneSection('Partner listing cost', 'bench:partners', 'PARTNERS-RESULTS.md', async (db, mode) => partnerCostLines(await partnerCost(db, mode.taskMs, PARTNER_PAIRS)));
