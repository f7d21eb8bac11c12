// Doc §4: schemes that open business toilets to everyone (Nette Toilette, Community Toilet Scheme …).

import { isYes, normaliseEnum, type Tags } from './tags.js';

export interface SchemePhrase {
  /** Lower case, words separated by single spaces; matched anywhere in the normalised text. */
  readonly phrase: string;
  /** The scheme_name shown for a match. */
  readonly label: string;
}

/**
 * Configuration: phrases that name a scheme in `operator`, `name`, `network` or `toilets:scheme`.
 * Scheme membership churns; edit this table rather than the code.
 */
export const SCHEME_PHRASES: readonly SchemePhrase[] = [
  { phrase: 'nette toilette', label: 'Nette Toilette' },
  { phrase: 'community toilet', label: 'Community Toilet Scheme' },
  { phrase: 'use our loos', label: 'Use Our Loos' },
  { phrase: 'comfort scheme', label: 'Comfort Scheme' },
];

export interface Scheme {
  /** scheme_name; null when a scheme is tagged without a name (`toilets:scheme=yes`). */
  readonly name: string | null;
}

const LABELLED: ReadonlyMap<string, Scheme> = new Map(SCHEME_PHRASES.map((p) => [p.phrase, Object.freeze({ name: p.label })]));
const NETTE_TOILETTE = LABELLED.get('nette toilette')!;
const UNNAMED: Scheme = Object.freeze({ name: null });
const NOT_A_SCHEME = new Set(['no', 'none', 'unknown']);
const WORD_SEPARATORS = /[\s_-]+/g;
const TOILET_NETWORK = /toilet/i;

/** Answers per text: operators repeat across thousands of toilets. Bounded, as names are free text. */
const knownByText = new Map<string, Scheme | null>();
const MAX_KNOWN = 20_000;

function knownScheme(text: string): Scheme | null {
  let known = knownByText.get(text);
  if (known === undefined) {
    const words = normaliseEnum(text).replace(WORD_SEPARATORS, ' ');
    known = null;
    for (const [phrase, scheme] of LABELLED) {
      if (words.includes(phrase)) {
        known = scheme;
        break;
      }
    }
    if (knownByText.size >= MAX_KNOWN) knownByText.clear();
    knownByText.set(text, known);
  }
  return known;
}

/** A known phrase gives its label; any other name is kept as written ("Toilets4London"). */
function labelled(value: string): Scheme {
  return knownScheme(value) ?? { name: value.trim() };
}

function declaredScheme(value: string | undefined): Scheme | null {
  if (value === undefined || value.trim() === '') return null;
  const normalised = normaliseEnum(value);
  if (NOT_A_SCHEME.has(normalised)) return null;
  return normalised === 'yes' ? UNNAMED : labelled(value);
}

/**
 * First non-empty of: `toilets:scheme`, `nette_toilette=yes`, a `network` mentioning toilets, then a
 * known phrase in `operator` or `name`. Reads the object's own keys whether it is a host or a toilet.
 */
export function detectScheme(tags: Tags): Scheme | null {
  const declared = declaredScheme(tags['toilets:scheme']);
  if (declared !== null) return declared;
  if (isYes(tags.nette_toilette)) return NETTE_TOILETTE;
  const network = tags.network;
  if (network !== undefined && TOILET_NETWORK.test(network)) return labelled(network);
  const operator = tags.operator;
  const name = tags.name;
  return (operator === undefined ? null : knownScheme(operator)) ?? (name === undefined ? null : knownScheme(name));
}
