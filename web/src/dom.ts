// Building the account pages' lists: elements with text children only (never HTML from an answer, so a
// display name or a note can hold anything), and dates in the page's language.
import { locale } from './common.js';

type Child = Node | string | null | false;

/** An element with attributes (strings; `true` for a bare one) and text or element children. */
export function el(tag: string, attributes: Record<string, string | true> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value === true ? '' : value);
  for (const child of children) if (child !== null && child !== false) element.append(child);
  return element;
}

const DATE_TIME = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });

export function dateTime(iso: string): string {
  return DATE_TIME.format(new Date(iso));
}
