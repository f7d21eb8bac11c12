// The site's languages and the lookup of one text: shared by the server-rendered pages and the front end
// (web/ bundles this module), so both say the same thing in the same words. It imports no catalogue: the
// server registers all of them (catalogues.ts), a page only the one of its language (web/src/texts.ts),
// so a page never downloads the other six. Numbers in a text are formatted by Intl for the language, and
// a message that counts something has one form per plural category of the language (Intl.PluralRules).
import type { en } from './en.js';
import type { Message } from './message.js';

export type { Message, Plural } from './message.js';
export type TextKey = keyof typeof en;
/** English: every key. */
export type Catalogue = Record<TextKey, Message>;
/** Another language: the same keys (test/web/catalogues.test.ts checks that none is missing or extra). */
export type Translation = { readonly [key in TextKey]?: Message };

export const LANGUAGES = ['en', 'de', 'fr', 'it', 'es', 'pt', 'nl'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Each language's name in itself, for the switch. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English', de: 'Deutsch', fr: 'Français', it: 'Italiano', es: 'Español', pt: 'Português', nl: 'Nederlands',
};
/**
 * The locale Intl formats with and the page's `lang`: British English (the texts spell "licence"), and
 * European Portuguese (the texts are written for Portugal; Brazilians read it without trouble).
 */
export const LOCALES: Record<Language, string> = { en: 'en-GB', de: 'de', fr: 'fr', it: 'it', es: 'es', pt: 'pt-PT', nl: 'nl' };

const loaded: Partial<Record<Language, Translation>> = {};

/** Makes `catalogue` the texts of `lang` (the server does so for every language, a page for its own). */
export function useCatalogue(lang: Language, catalogue: Translation): void {
  loaded[lang] = catalogue;
}

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/** The language of a `lang` attribute or header such as "pt-PT", else English. */
export function languageOf(tag: string | null): Language {
  const primary = (tag ?? '').toLowerCase().split('-')[0];
  return isLanguage(primary) ? primary : 'en';
}

const numberFormats = new Map<Language, Intl.NumberFormat>();
const pluralRules = new Map<Language, Intl.PluralRules>();

function formatNumber(lang: Language, value: number): string {
  let format = numberFormats.get(lang);
  if (format === undefined) numberFormats.set(lang, (format = new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: 20 })));
  return format.format(value);
}

/** The plural category of `count` in `lang` ("one", "many", "other", …). */
export function pluralCategory(lang: Language, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(lang);
  if (rules === undefined) pluralRules.set(lang, (rules = new Intl.PluralRules(LOCALES[lang])));
  return rules.select(count);
}

/** Whether `key` names a text (for keys made from an answer, such as a problem's type). */
export function hasText(lang: Language, key: string): key is TextKey {
  return (loaded[lang] ?? loaded.en)?.[key as TextKey] !== undefined;
}

/** The template of `key` in `lang` for these values (English when a newer key is not translated yet). */
function template(lang: Language, key: TextKey, vars: Record<string, string | number>): string {
  const message = loaded[lang]?.[key] ?? loaded.en?.[key];
  if (message === undefined) return key;
  if (typeof message === 'string') return message;
  return message[pluralCategory(lang, Number(vars[message.plural]))] ?? message.other;
}

/** The text for `key` in `lang`, with each `{name}` replaced by vars[name] (numbers in the language's format). */
export function text(lang: Language, key: TextKey, vars: Record<string, string | number> = {}): string {
  return template(lang, key, vars).replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!(name in vars)) return whole;
    const value = vars[name];
    return typeof value === 'number' ? formatNumber(lang, value) : value;
  });
}

/** The first supported language in an Accept-Language header, by weight; null when none is. */
export function acceptedLanguage(acceptLanguage: string): Language | null {
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
  return null;
}

/** The language of an explicit `?lang=` choice, else the switch's cookie, else Accept-Language, else English. */
export function chooseLanguage(explicit: string | null, acceptLanguage: string, remembered: string | null = null): Language {
  if (explicit !== null && isLanguage(explicit)) return explicit;
  if (remembered !== null && isLanguage(remembered)) return remembered;
  return acceptedLanguage(acceptLanguage) ?? 'en';
}
