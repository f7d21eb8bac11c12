// The site's languages and the lookup of one text: shared by the server-rendered pages and the front end
// (web/ bundles this module), so both say the same thing in the same words.
import { en, type Catalogue } from './en.js';
import { de } from './de.js';

export type { Catalogue };
export type TextKey = keyof typeof en;

export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch' };

const CATALOGUES: Record<Language, Catalogue> = { en, de };

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/** The text for `key` in `lang`, with each `{name}` replaced by vars[name]. */
export function text(lang: Language, key: TextKey, vars: Record<string, string | number> = {}): string {
  return CATALOGUES[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** The language of an explicit `lang` choice, else the first supported one in Accept-Language, else English. */
export function chooseLanguage(explicit: string | null, acceptLanguage: string): Language {
  if (explicit !== null && isLanguage(explicit)) return explicit;
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find((m) => m !== null);
      return { primary: tag.split('-')[0], q: q ? Number(q[1]) : 1 };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { primary } of ranked) if (isLanguage(primary)) return primary;
  return 'en';
}
