// The texts of the page's language, and only those: each catalogue is its own chunk (web/build.mjs tells
// the server its name, and the page's head preloads it), so a page downloads one language, not seven.
// Every module that imports common.ts waits for this one (top-level await) and then reads texts synchronously.
import { useCatalogue, type Language, type Translation } from '../../src/web/text/catalogue.js';

const LOADERS: Record<Language, () => Promise<Translation>> = {
  en: async () => (await import('../../src/web/text/en.js')).en,
  de: async () => (await import('../../src/web/text/de.js')).de,
  fr: async () => (await import('../../src/web/text/fr.js')).fr,
  it: async () => (await import('../../src/web/text/it.js')).it,
  es: async () => (await import('../../src/web/text/es.js')).es,
  pt: async () => (await import('../../src/web/text/pt.js')).pt,
  nl: async () => (await import('../../src/web/text/nl.js')).nl,
};

export async function loadTexts(lang: Language): Promise<void> {
  useCatalogue(lang, await LOADERS[lang]());
}
