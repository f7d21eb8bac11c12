// The importer as the server sees it: the one file of importer/ that src/ may import (the architecture
// test holds it to that). The server's first start imports TOILETS_EXTRACT through it, as the CLI does.
export { importFromSource } from './import-source.js';
export { removeTemporariesOnInterrupt } from './temporaries.js';
