// The seven catalogues against English (no key missing or extra, the same placeholders, plural forms per
// language), every problem type with a text for people, and Intl formatting per language: a date, a
// distance with a walking time, an opening-hours sentence, a week table row, a count's plural.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CATALOGUES } from '../../src/web/text/catalogues.js';
import { chooseLanguage, LANGUAGES, text, type Catalogue, type Language } from '../../src/web/text/catalogue.js';
import { en } from '../../src/web/text/en.js';
import { closingTime, longDate, spanList, weekdayName } from '../../src/web/text/format.js';
import { distanceLabel } from '../../src/web/text/item.js';
import { problemText } from '../../src/web/text/problem.js';
import { PROBLEM_TYPES } from '../../src/problems.js';
import { catalogueProblems } from './catalogue-check.js';

const english: Catalogue = en;

test('every catalogue has exactly the English keys, placeholders and plural forms of its language', () => {
  for (const lang of LANGUAGES) assert.deepEqual(catalogueProblems(lang, english, CATALOGUES[lang]), [], lang);
});

test('the check finds a missing key, an extra key, other placeholders and wrong plural forms', () => {
  const { fr } = CATALOGUES;
  const { 'nav.find': _dropped, ...lacking } = fr;
  assert.deepEqual(catalogueProblems('fr', english, lacking), ['fr: lacks nav.find']);
  assert.deepEqual(catalogueProblems('fr', english, { ...fr, 'nav.nowhere': 'Nulle part' } as typeof fr), ['fr: has nav.nowhere, which English lacks']);
  assert.deepEqual(catalogueProblems('fr', english, { ...fr, 'find.nearestTo': 'Les plus proches de {lieu}.' }), ['fr: find.nearestTo has placeholders {lieu}, English {label}']);
  assert.deepEqual(catalogueProblems('fr', english, { ...fr, 'mod.openReports': '{count} signalements' }), ['fr: mod.openReports has no plural forms, English counts with {count}']);
  assert.deepEqual(catalogueProblems('fr', english, { ...fr, 'mod.openReports': { plural: 'count', one: '{count} signalement', other: '{count} signalements' } }), ['fr: mod.openReports has plural forms one,other, fr needs many,one,other']);
  assert.deepEqual(catalogueProblems('nl', english, { ...CATALOGUES.nl, 'nav.find': { plural: 'count', one: 'Zoeken', other: 'Zoeken' } }), ['nl: nav.find has plural forms, English has none']);
});

test('each problem type the API answers has a text for people; the API\'s English detail is never shown', () => {
  for (const slug of Object.keys(PROBLEM_TYPES)) assert.ok(`problem.${slug}` in en, `problem.${slug}`);
  const problem = { type: 'https://toilets.example/problems/daily-limit', detail: 'This address already added a new rater to this toilet today.' };
  assert.equal(problemText('fr', problem, 429), 'Depuis ce réseau, une seule nouvelle note ou un seul nouveau vote par toilettes et par jour est possible. Réessayez demain.');
  assert.equal(problemText('pt', { type: 'https://toilets.example/problems/not-a-type' }, 418), 'Ocorreu um erro (erro 418). Tente novamente mais tarde.');
  assert.equal(problemText('nl', null, 502), 'Er is iets misgegaan (fout 502). Probeer het later opnieuw.');
});

/** Per language: a date, a distance with its walking time and direction, "open now, closes at", a week table row, and a count's plural. */
const FORMATS: Record<Language, [string, string, string, string, string]> = {
  en: ['1 December 2026', '1.3 km · 16 minutes on foot, heading east', 'Open now, closes 18:00 (local time).', 'Monday: 08:00–12:00, 14:00–24:00', 'Cleanliness 4 of 5 stars (1 rating). Cleanliness 4 of 5 stars (1,234 ratings).'],
  de: ['1. Dezember 2026', '1,3 km · 16 Minuten zu Fuß Richtung Osten', 'Jetzt geöffnet, schließt um 18:00 (Ortszeit).', 'Montag: 08:00–12:00, 14:00–24:00', 'Sauberkeit 4 von 5 Sternen (1 Bewertung). Sauberkeit 4 von 5 Sternen (1.234 Bewertungen).'],
  fr: ['1 décembre 2026', '1,3 km · 16 minutes à pied, direction est', 'Ouvertes en ce moment, ferment à 18:00 (heure locale).', 'Lundi: 08:00–12:00 et 14:00–24:00', 'Propreté : 4 sur 5 étoiles (1 avis). Propreté : 4 sur 5 étoiles (1 234 avis).'],
  it: ['1 dicembre 2026', '1,3 km · 16 minuti a piedi verso est', 'Aperto ora, chiude alle 18:00 (ora locale).', 'Lunedì: 08:00–12:00 e 14:00–24:00', 'Pulizia: 4 su 5 stelle (1 valutazione). Pulizia: 4 su 5 stelle (1234 valutazioni).'],
  es: ['1 de diciembre de 2026', '1,3 km · 16 minutos a pie hacia el este', 'Abierto ahora, cierra a las 18:00 (hora local).', 'Lunes: 08:00–12:00 y 14:00–24:00', 'Limpieza: 4 de 5 estrellas (1 valoración). Limpieza: 4 de 5 estrellas (1234 valoraciones).'],
  pt: ['1 de dezembro de 2026', '1,3 km · 16 minutos a pé, em direção a este', 'Aberta agora, fecha às 18:00 (hora local).', 'Segunda-feira: 08:00–12:00 e 14:00–24:00', 'Limpeza: 4 em 5 estrelas (1 avaliação). Limpeza: 4 em 5 estrelas (1234 avaliações).'],
  nl: ['1 december 2026', '1,3 km · 16 minuten lopen richting oosten', 'Nu open, sluit om 18:00 (plaatselijke tijd).', 'Maandag: 08:00–12:00, 14:00–24:00', 'Netheid 4 van 5 sterren (1 beoordeling). Netheid 4 van 5 sterren (1.234 beoordelingen).'],
};

/** Intl and French typography put no-break spaces ("1 234", "Propreté :"), the week table word joiners; the expectations above write neither. */
const plainSpaces = (value: string) => value.replace(/[\u00a0\u202f]/g, ' ').replace(/\u2060/g, '');

test('dates, distances, walking times, opening hours, week days and plurals come from Intl in each language', () => {
  for (const lang of LANGUAGES) {
    const stars = (count: number) => text(lang, 'clean.stars', { average: '4', count });
    assert.deepEqual([
      longDate(lang, '2026-12-01T10:00:00Z'),
      distanceLabel(lang, { distance_m: 1250, walk_min: 16, bearing: 90 }),
      text(lang, 'hours.openUntil', { time: closingTime(lang, '2026-12-01T18:00:00+01:00') }),
      `${weekdayName(lang, 0)}: ${spanList(lang, ['08:00–12:00', '14:00–24:00'])}`,
      `${stars(1)} ${stars(1234)}`,
    ].map(plainSpaces), FORMATS[lang], lang);
  }
  assert.equal(distanceLabel('en', { distance_m: 80, walk_min: 1, bearing: 0 }), '80 m · 1 minute on foot, heading north');
  assert.equal(text('fr', 'confirm.count', { count: 1, date: longDate('fr', '2026-11-30T00:00:00Z') }), 'Confirmées une fois au cours des 12 derniers mois, le 30 novembre 2026.');
  assert.equal(plainSpaces(text('fr', 'improve.thanksConfirm', { count: 1_000_000 })), 'Merci : confirmées 1 000 000 de fois au cours des 12 derniers mois.');
});

test('the language: ?lang= first, then the switch\'s cookie, then Accept-Language by weight, then English', () => {
  assert.equal(chooseLanguage('de', 'en', 'fr'), 'de');
  assert.equal(chooseLanguage(null, 'de', 'pt'), 'pt');
  assert.equal(chooseLanguage('xx', 'sv-SE, nl-BE;q=0.8, en;q=0.5', 'zz'), 'nl');
  assert.equal(chooseLanguage(null, 'en;q=0.2, pt-BR;q=0.9'), 'pt');
  assert.equal(chooseLanguage(null, 'sv, fi'), 'en');
  assert.equal(chooseLanguage(null, ''), 'en');
});
