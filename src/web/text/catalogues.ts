// Every catalogue, for the server: the pages are rendered in any of the site's languages, so the server
// registers all of them once (a page in the browser loads only its own, web/src/texts.ts). To add a
// language: write its catalogue beside en.ts, add it to LANGUAGES (catalogue.ts), here, and in texts.ts.
import { useCatalogue, type Language, type Translation } from './catalogue.js';
import { en } from './en.js';
import { de } from './de.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { es } from './es.js';
import { pt } from './pt.js';
import { nl } from './nl.js';

export const CATALOGUES: Record<Language, Translation> = { en, de, fr, it, es, pt, nl };

for (const [lang, catalogue] of Object.entries(CATALOGUES)) useCatalogue(lang as Language, catalogue);
