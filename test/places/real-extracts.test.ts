// The place lookup over the real extracts: each is imported into a source database (a copy of the cached
// import, test/support/extracts.ts) and its stored index loaded the way the server loads it (places table,
// GeoNames towns, toilets for nearness, built by the importer). Names and positions are those of the extracts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSourceDatabase } from '../../src/source/schema.js';
import { loadPlaceIndex } from '../support/place-index.js';
import { readPlaceIndex } from '../../src/places/stored.js';
import type { PlaceIndex } from '../../src/places/place-index.js';
import { importedCopy } from '../support/extracts.js';

type Extract = 'liechtenstein' | 'monaco' | 'andorra' | 'porto';
const EXTRACTS: Extract[] = ['liechtenstein', 'monaco', 'andorra', 'porto'];
const dir = mkdtempSync(join(tmpdir(), 'places-real-'));
const indexes = {} as Record<Extract, PlaceIndex>;

before(async () => {
  for (const name of EXTRACTS) {
    const path = join(dir, `${name}.db`);
    await importedCopy(name, path);
    const db = openSourceDatabase(path);
    indexes[name] = readPlaceIndex(db);
    db.close();
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

function label(extract: Extract, text: string, country: string | null = null): string | null {
  return indexes[extract].find({ text, country, near: null })?.label ?? null;
}

test('Liechtenstein: towns, streets within their town, landmarks and stations', () => {
  assert.deepEqual(indexes.liechtenstein.find({ text: 'Vaduz', country: null, near: null }), { lat: 47.1392862, lon: 9.5227962, label: 'Vaduz' });
  assert.equal(label('liechtenstein', 'Bahnhofstrasse, Schaan'), 'Bahnhofstrasse, Schaan');
  assert.equal(label('liechtenstein', 'Schaan Bahnhofstraße'), 'Bahnhofstrasse, Schaan');
  assert.equal(label('liechtenstein', 'Bahnhofstrasse, Vaduz'), null, 'Vaduz has no Bahnhofstrasse in the extract');
  assert.equal(label('liechtenstein', 'Städtle'), 'Städtle, Vaduz');
  assert.equal(label('liechtenstein', 'staedtle, vaduz'), 'Städtle, Vaduz');
  assert.equal(label('liechtenstein', 'Landstraße Triesen'), 'Landstrasse, Triesen');
  assert.equal(label('liechtenstein', 'Schloss Vaduz'), 'Schloss Vaduz, Vaduz');
  assert.equal(label('liechtenstein', 'Landesmuseum'), 'Liechtensteinisches Landesmuseum Vaduz, Vaduz');
  assert.equal(label('liechtenstein', 'Dr. Josef Hoop Str. Eschen'), 'Dr. Josef Hoop-Straße, Eschen');
  assert.equal(label('liechtenstein', 'gamprin bendern'), 'Gamprin-Bendern');
  assert.equal(label('liechtenstein', 'Вадуц'), 'Vaduz');
});

test('Liechtenstein: misspellings, countries and towns of the rest of the world', () => {
  assert.equal(label('liechtenstein', 'Vadzu'), 'Vaduz');
  assert.equal(label('liechtenstein', 'Schlos Vaduz'), 'Schloss Vaduz, Vaduz');
  assert.equal(label('liechtenstein', 'Vaduz', 'LI'), 'Vaduz');
  assert.equal(label('liechtenstein', 'Vaduz', 'AT'), null);
  assert.equal(label('liechtenstein', 'Vienna'), 'Vienna');
  assert.equal(label('liechtenstein', 'Osaka'), 'Osaka');
  assert.ok(Math.abs(indexes.liechtenstein.find({ text: 'Osaka', country: 'JP', near: null })!.lat - 34.69) < 0.1);
  assert.equal(label('liechtenstein', 'Vienna', 'US'), 'Vienna', 'one of the towns named Vienna in the United States');
  assert.ok(indexes.liechtenstein.find({ text: 'Vienna', country: 'US', near: null })!.lon < -70);
});

test('Monaco: the station by kind, museums by French or English name, squares and boulevards', () => {
  assert.equal(label('monaco', 'Monaco'), 'Monaco');
  assert.equal(label('monaco', 'station Monaco'), 'Monaco - Monte Carlo, Monaco');
  assert.equal(label('monaco', 'Monaco train station'), 'Monaco - Monte Carlo, Monaco');
  assert.equal(label('monaco', 'Musée Océanographique'), 'Musée Océanographique, Monaco');
  assert.equal(label('monaco', 'oceanographic museum'), 'Musée Océanographique, Monaco');
  assert.equal(label('monaco', 'Place du Casino'), 'Place du Casino, Monaco');
  assert.equal(label('monaco', 'Stade Louis II'), 'Stade Louis-II, Fontvieille');
  assert.equal(label('monaco', 'Bd des Moulins'), 'Boulevard des Moulins, Monaco');
  assert.equal(label('monaco', 'Monte Carlo'), 'Monte-Carlo, Monaco');
});

test('Andorra: accents and apostrophes', () => {
  assert.deepEqual(indexes.andorra.find({ text: 'andorra la vella', country: 'AD', near: null }), { lat: 42.5069391, lon: 1.5212467, label: 'Andorra la Vella' });
  assert.equal(label('andorra', 'Sant Julia de Loria'), 'Sant Julià de Lòria');
  assert.equal(label('andorra', 'Sant Julià'), 'Sant Julià de Lòria');
  assert.equal(label('andorra', "Estacio Nacional d'Autobussos"), "Estació Nacional d'Autobussos, Andorra la Vella");
  assert.equal(label('andorra', 'Pas de la Casa'), 'Pas de la Casa');
});

test('Porto: the city, its metro stations before namesake towns elsewhere, streets and landmarks', () => {
  assert.deepEqual(indexes.porto.find({ text: 'Porto', country: null, near: null }), { lat: 41.1494512, lon: -8.6107884, label: 'Porto' });
  assert.equal(label('porto', 'Oporto'), 'Porto');
  assert.equal(label('porto', 'Porto', 'BR'), 'Porto');
  assert.ok(indexes.porto.find({ text: 'Porto', country: 'BR', near: null })!.lat < 0);
  assert.equal(label('porto', 'Trindade'), 'Trindade, Porto');
  assert.equal(label('porto', 'Sao Bento'), 'Porto - São Bento, Porto');
  assert.equal(label('porto', 'Rua Santa Catarina, Porto'), 'Rua de Santa Catarina, Porto');
  assert.equal(label('porto', 'Av. dos Aliados'), 'Avenida dos Aliados, Porto');
  assert.equal(label('porto', 'Torre dos Clerigos'), 'Torre dos Clérigos, Porto');
  assert.equal(label('porto', 'Palacio da Bolsa'), 'Palácio da Bolsa, Porto');
  assert.equal(label('porto', 'Vila Nova de Gaia'), 'Vila Nova de Gaia');
});

test('queries of nothing, of punctuation only, or of unknown words find nothing', () => {
  for (const text of ['', '   ', '!!!', '.,;:-_()[]', 'zzqxv', 'Vaduz zzqxv']) assert.equal(label('liechtenstein', text), null, JSON.stringify(text));
});

test('loaded without world towns and with toilets given, only the extract answers', () => {
  const db = openSourceDatabase(join(dir, 'porto.db'));
  const own = loadPlaceIndex(db, { worldTowns: false, toilets: { lat: [41.146], lon: [-8.611] } });
  db.close();
  assert.ok(own.size < indexes.porto.size);
  assert.equal(own.find({ text: 'Vienna', country: null, near: null }), null);
  assert.equal(own.find({ text: 'Porto', country: 'BR', near: null }), null);
  assert.equal(own.find({ text: 'Trindade', country: null, near: null })?.label, 'Trindade, Porto');
});

test('the stored index answers exactly as one built afresh from the places table', () => {
  const queries = ['Vaduz', 'Schaan', 'Bahnhofstrasse, Schaan', 'Städtle', 'Monaco', 'Casino', 'Andorra la Vella', 'Porto', 'Trindade', 'Rua de Santa Catarina', 'Vienna', 'Osaka', 'Santa', 'Bahnhof', 'Aeroporto', 'Mueseu'];
  for (const name of EXTRACTS) {
    const db = openSourceDatabase(join(dir, `${name}.db`));
    const fresh = loadPlaceIndex(db);
    db.close();
    assert.equal(fresh.size, indexes[name].size);
    for (const text of queries) {
      for (const country of [null, 'PT', 'LI']) {
        const query = { text, country, near: null };
        assert.deepEqual(indexes[name].find(query), fresh.find(query), `${name}: ${text} ${country}`);
        assert.deepEqual(indexes[name].find({ ...query, near: { lat: 41.15, lon: -8.61 } }), fresh.find({ ...query, near: { lat: 41.15, lon: -8.61 } }));
      }
    }
  }
});
