// What is wrong with a translation against the English catalogue: keys English has and it lacks, keys it
// has and English lacks, placeholders that differ, and plural forms that differ (English counts with
// `plural: v`, so must the translation, with exactly the plural categories of its language).
import { LOCALES, type Catalogue, type Language, type Message, type Translation } from '../../src/web/text/catalogue.js';

function placeholders(message: Message): string[] {
  const texts = typeof message === 'string' ? [message] : Object.entries(message).filter(([k]) => k !== 'plural').map(([, v]) => v as string);
  return [...new Set(texts.flatMap((t) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();
}

export function catalogueProblems(lang: Language, english: Catalogue, translation: Translation): string[] {
  const problems: string[] = [];
  const keys = Object.keys(english) as (keyof Catalogue)[];
  for (const key of keys) {
    const mine = translation[key];
    if (mine === undefined) {
      problems.push(`${lang}: lacks ${key}`);
      continue;
    }
    const theirs = english[key];
    if (placeholders(mine).join() !== placeholders(theirs).join()) {
      problems.push(`${lang}: ${key} has placeholders {${placeholders(mine).join('}, {')}}, English {${placeholders(theirs).join('}, {')}}`);
    }
    if (typeof theirs === 'string' && typeof mine !== 'string') problems.push(`${lang}: ${key} has plural forms, English has none`);
    if (typeof theirs !== 'string') {
      if (typeof mine === 'string') problems.push(`${lang}: ${key} has no plural forms, English counts with {${theirs.plural}}`);
      else {
        if (mine.plural !== theirs.plural) problems.push(`${lang}: ${key} counts with {${mine.plural}}, English with {${theirs.plural}}`);
        const wanted = new Intl.PluralRules(LOCALES[lang]).resolvedOptions().pluralCategories.slice().sort().join();
        const given = Object.keys(mine).filter((k) => k !== 'plural').sort().join();
        if (given !== wanted) problems.push(`${lang}: ${key} has plural forms ${given}, ${LOCALES[lang]} needs ${wanted}`);
      }
    }
  }
  for (const key of Object.keys(translation)) if (!(key in english)) problems.push(`${lang}: has ${key}, which English lacks`);
  return problems;
}
