// What a refused request means, for people, in the page's language. The API's problem `detail` and
// `invalid_params[].reason` are English and for developers; the site never shows them. It reads the
// problem's `type` (`…/problems/<slug>`) and says the catalogue's text for that slug, and beside a field
// the catalogue's words for that field.
import { hasText, text, type Language, type TextKey } from './catalogue.js';

/** The catalogue's text for the problem's type, else a general one naming the status. */
export function problemText(lang: Language, problem: { type?: string } | null | undefined, status: number): string {
  const slug = /\/problems\/([a-z0-9-]+)$/.exec(problem?.type ?? '')?.[1];
  const key = `problem.${slug}` as TextKey;
  return slug !== undefined && hasText(lang, key) ? text(lang, key) : text(lang, 'problem.unknown', { status: String(status) });
}

/** What to change in one refused field (`invalid_params[].name`, e.g. "location.lat"), in the site's words. */
export function fieldProblemText(lang: Language, name: string): string {
  const field = name.split('.').pop()!.replace(/\[\d+\]$/, '');
  const key = `problem.field.${field}` as TextKey;
  return hasText(lang, key) ? text(lang, key) : text(lang, 'problem.field');
}
