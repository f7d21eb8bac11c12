// How a host's coarse, possibly partial `openai/userLocation` becomes a search origin (or none).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { hostHintOrigin } from '../../src/mcp/host-hint.js';
import type { PlaceLookup } from '../../src/places/lookup.js';
import { importMonaco, type Extract } from './support.js';

let extract: Extract;
let places: PlaceLookup;
before(async () => {
  extract = await importMonaco();
  places = extract.places();
});
after(() => extract?.remove());

const hint = (location: unknown) => ({ 'openai/userLocation': location, 'openai/locale': 'en-GB' });

test('no hint, or one that is not an object: no origin', async () => {
  for (const meta of [undefined, {}, hint(null), hint('Monaco'), hint([43.7, 7.4])]) {
    assert.equal(await hostHintOrigin(meta, places), null, JSON.stringify(meta));
  }
});

test('coordinates are used as sent, labelled with the names that came with them', async () => {
  assert.deepEqual(await hostHintOrigin(hint({ latitude: 43.7384, longitude: 7.4246, city: ' Monaco ', country: 'mc' }), null), {
    lat: 43.7384,
    lon: 7.4246,
    label: 'Monaco, MC',
    source: 'host_hint',
  });
  assert.deepEqual(await hostHintOrigin(hint({ latitude: 43.738412345, longitude: 7.424612345, country: 'Monaco' }), null), {
    lat: 43.738412345,
    lon: 7.424612345,
    label: 'Monaco',
    source: 'host_hint',
  });
  // without names: no label, so the answer labels the position with its coordinates (see the MCP tool tests)
  assert.equal((await hostHintOrigin(hint({ latitude: 43.738412345, longitude: 7.424612345 }), null))?.label, null);
});

test('half a position, or one out of range, is not a position: the city is looked up instead', async () => {
  const byCity = await hostHintOrigin(hint({ latitude: 43.7, city: 'Fontvieille', country: 'MC' }), places);
  assert.equal(byCity?.source, 'host_hint');
  assert.match(byCity!.label ?? '', /Fontvieille/);
  assert.deepEqual(await hostHintOrigin(hint({ latitude: 91, longitude: 7.4, city: 'Fontvieille' }), places), byCity);
  assert.equal(await hostHintOrigin(hint({ latitude: 43.7 }), places), null);
});

test('a city needs a lookup that knows it', async () => {
  assert.equal(await hostHintOrigin(hint({ city: 'Fontvieille' }), null), null, 'no lookup configured');
  assert.equal(await hostHintOrigin(hint({ city: 'Qwxyzzy Town' }), places), null, 'unknown city');
  assert.equal(await hostHintOrigin(hint({ city: 'F' }), places), null, 'shorter than a place may be');
});
