// The remote geocoder and the combined lookup, against a small local fake server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RemoteGeocoder } from '../../src/places/remote.js';
import { LayeredPlaceLookup, createPlaceLookup } from '../../src/places/service.js';
import { PlaceLookupUnavailable, type PlaceQuery } from '../../src/places/lookup.js';
import { buildPlaceIndex } from '../../src/places/build.js';
import { ConfigError, readGeocoderConfig } from '../../src/config.js';

let respond: (request: IncomingMessage, response: ServerResponse) => void = () => {};
const requests: { url: URL; userAgent: string | undefined }[] = [];
let server: Server;
let base = '';

before(async () => {
  server = createServer((request, response) => {
    requests.push({ url: new URL(request.url!, base), userAgent: request.headers['user-agent'] });
    respond(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

function answer(status: number, body: string, type = 'application/json') {
  respond = (_, response) => response.writeHead(status, { 'content-type': type }).end(body);
}
function json(body: unknown) {
  answer(200, JSON.stringify(body));
}
function query(text: string, country: string | null = null, near: PlaceQuery['near'] = null): PlaceQuery {
  return { text, country, near };
}
const nominatim = () => new RemoteGeocoder({ url: base, timeoutMs: 1000, userAgent: 'toilet-finder-test' });
const photon = () => new RemoteGeocoder({ url: `${base}/api/`, timeoutMs: 1000, userAgent: 'toilet-finder-test' });

test('Nominatim: asks /search for JSON in the country and labels "<name>, <town>"', async () => {
  json([{ lat: '47.1407', lon: '9.5219', name: 'Rathaus Vaduz', display_name: 'Rathaus Vaduz, Städtle, Vaduz, Liechtenstein', address: { town: 'Vaduz', country_code: 'li' } }]);
  requests.length = 0;
  assert.deepEqual(await nominatim().find(query('Rathaus Vaduz', 'LI')), { lat: 47.1407, lon: 9.5219, label: 'Rathaus Vaduz, Vaduz' });
  const { url, userAgent } = requests[0];
  assert.equal(url.pathname, '/search');
  assert.equal(url.searchParams.get('q'), 'Rathaus Vaduz');
  assert.equal(url.searchParams.get('format'), 'jsonv2');
  assert.equal(url.searchParams.get('countrycodes'), 'li');
  assert.equal(userAgent, 'toilet-finder-test');
});

test('Nominatim: a town is labelled with its name alone, a nameless result by its display name; no result is null', async () => {
  json([{ lat: '47.14', lon: '9.52', name: 'Vaduz', address: { town: 'Vaduz' } }]);
  assert.equal((await nominatim().find(query('Vaduz')))?.label, 'Vaduz');
  json([{ lat: '47.14', lon: '9.52', display_name: 'Städtle, Vaduz, Liechtenstein', address: { town: 'Vaduz' } }]);
  assert.equal((await nominatim().find(query('Städtle')))?.label, 'Städtle, Vaduz');
  json([]);
  assert.equal(await nominatim().find(query('nowhere at all')), null);
});

test('Photon: asks /api with the country and position, and skips results in other countries', async () => {
  json({
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', geometry: { type: 'Point', coordinates: [-49.48889, -16.64944] }, properties: { name: 'Trindade', countrycode: 'BR' } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [-8.6093526, 41.1525171] }, properties: { name: 'Trindade', city: 'Porto', countrycode: 'PT' } },
    ],
  });
  requests.length = 0;
  assert.deepEqual(await photon().find(query('Trindade', 'PT', { lat: 41.15, lon: -8.61 })), { lat: 41.1525171, lon: -8.6093526, label: 'Trindade, Porto' });
  const { url } = requests[0];
  assert.equal(url.pathname, '/api');
  assert.equal(url.searchParams.get('countrycode'), 'PT');
  assert.equal(url.searchParams.get('lat'), '41.15');
  assert.equal(await photon().find(query('Trindade', 'AT')), null);
});

async function assertUnavailable(promise: Promise<unknown>, reason: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof PlaceLookupUnavailable, String(error));
    assert.match(error.message, reason);
    assert.equal(error.retryAfterSeconds, 30);
    return true;
  });
}

test('garbage answers make the geocoder unavailable', async () => {
  answer(200, '<html>Service temporarily overloaded</html>', 'text/html');
  await assertUnavailable(nominatim().find(query('Vaduz')), /failed/);
  json({ error: 'Unable to geocode' });
  await assertUnavailable(nominatim().find(query('Vaduz')), /not a geocoding result/);
  json([{ lat: 'north', lon: '9.52', name: 'Vaduz' }]);
  await assertUnavailable(nominatim().find(query('Vaduz')), /not a geocoding result/);
  json([{ lat: '147.1', lon: '9.52', name: 'Vaduz' }]);
  await assertUnavailable(nominatim().find(query('Vaduz')), /not a geocoding result/);
  json([{ type: 'Feature' }]);
  await assertUnavailable(photon().find(query('Vaduz')), /not a geocoding result/);
  json({ features: [{ properties: { name: 'Vaduz' } }] });
  await assertUnavailable(photon().find(query('Vaduz')), /not a geocoding result/);
  answer(503, '{"error":"busy"}');
  await assertUnavailable(nominatim().find(query('Vaduz')), /HTTP 503/);
});

test('a geocoder that does not answer in time, or is not there, is unavailable', async () => {
  respond = () => {}; // never answers
  const slow = new RemoteGeocoder({ url: base, timeoutMs: 100, userAgent: 'test' });
  await assertUnavailable(slow.find(query('Vaduz')), /no answer within 100 ms/);
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await assertUnavailable(new RemoteGeocoder({ url: `http://127.0.0.1:${port}`, timeoutMs: 1000, userAgent: 'test' }).find(query('Vaduz')), /ECONNREFUSED/);
});

const embedded = buildPlaceIndex([
  { kind: 'settlement', name: 'Vaduz', alt_names: null, lat: 47.1392862, lon: 9.5227962, importance: 0.603, city: null, country: 'LI' },
]);
const VADUZ = { lat: 47.1392862, lon: 9.5227962, label: 'Vaduz' };
const REMOTE_VADUZ = { lat: 47.14, lon: 9.52, label: 'Vaduz (remote)' };

test('fallback mode answers a known place at once without the network, and asks the geocoder for the rest', async () => {
  const lookup = new LayeredPlaceLookup(embedded, nominatim(), 'fallback');
  requests.length = 0;
  assert.deepEqual(lookup.find(query('Vaduz')), VADUZ, 'a plain value, not a promise');
  assert.equal(requests.length, 0);
  json([{ lat: '48.2', lon: '16.37', name: 'Wien' }]);
  assert.deepEqual(await lookup.find(query('Wien')), { lat: 48.2, lon: 16.37, label: 'Wien' });
  respond = (_, response) => response.destroy();
  await assertUnavailable(Promise.resolve(lookup.find(query('Wien'))), /failed/);
  assert.deepEqual(lookup.find(query('Vaduz')), VADUZ, 'a down geocoder does not matter for known places');
});

test('first mode prefers the geocoder, and falls back to the index when it finds nothing or fails', async () => {
  const lookup = new LayeredPlaceLookup(embedded, nominatim(), 'first');
  json([{ lat: '47.14', lon: '9.52', name: 'Vaduz (remote)' }]);
  assert.deepEqual(await lookup.find(query('Vaduz')), REMOTE_VADUZ);
  json([]);
  assert.deepEqual(await lookup.find(query('Vaduz')), VADUZ);
  assert.equal(await lookup.find(query('Wien')), null);
  answer(500, 'oops', 'text/plain');
  assert.deepEqual(await lookup.find(query('Vaduz')), VADUZ);
  await assertUnavailable(Promise.resolve(lookup.find(query('Wien'))), /HTTP 500/);
});

test('settings: defaults, the embedded index alone without a URL, and messages naming the bad variable', () => {
  assert.deepEqual(readGeocoderConfig({}), { url: null, mode: 'fallback', timeoutMs: 2000 });
  assert.deepEqual(readGeocoderConfig({ GEOCODER_URL: 'https://photon.example.org/api', GEOCODER_MODE: 'first', GEOCODER_TIMEOUT_MS: '500' }), {
    url: 'https://photon.example.org/api',
    mode: 'first',
    timeoutMs: 500,
  });
  assert.equal(createPlaceLookup(embedded, readGeocoderConfig({}), 'test'), embedded);
  assert.ok(createPlaceLookup(embedded, readGeocoderConfig({ GEOCODER_URL: base }), 'test') instanceof LayeredPlaceLookup);
  assert.throws(() => readGeocoderConfig({ GEOCODER_MODE: 'sometimes' }), (e: unknown) => e instanceof ConfigError && /GEOCODER_MODE/.test(e.message));
  assert.throws(() => readGeocoderConfig({ GEOCODER_TIMEOUT_MS: '0' }), (e: unknown) => e instanceof ConfigError && /GEOCODER_TIMEOUT_MS/.test(e.message));
  assert.throws(() => readGeocoderConfig({ GEOCODER_TIMEOUT_MS: '1.5' }), ConfigError);
  assert.throws(() => readGeocoderConfig({ GEOCODER_URL: 'ftp://geocoder' }), (e: unknown) => e instanceof ConfigError && /GEOCODER_URL/.test(e.message));
});
