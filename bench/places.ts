// Place lookup at scale: an index over a synthetic set of 1,000,000 places (settlements, streets with
// their city, stations, landmarks) named from a syllable vocabulary, deterministic for the seed.
import { buildPlaceIndex } from '../src/places/build.js';
import type { PlaceRecord } from '../src/places/record.js';
import { latencies, seededRandom, type LatencyStats } from './measure.js';

const SYLLABLES = ['ba', 'ce', 'di', 'fo', 'gu', 'la', 'me', 'ni', 'po', 'ru', 'sa', 'te', 'vi', 'zo', 'mar', 'ber', 'lin', 'dor', 'kas', 'tel', 'wen', 'hau', 'sen', 'ro', 'qui'];
const STREET_FORMS = [(w: string) => `Rua ${w}`, (w: string) => `${w}straße`, (w: string) => `Calle ${w}`, (w: string) => `Rue de ${w}`, (w: string) => `${w} Street`];

export interface PlaceBench {
  places: number;
  buildMs: number;
  stats: Record<string, LatencyStats>;
}

export async function benchPlaces(count: number, taskMs: number): Promise<PlaceBench> {
  const random = seededRandom(11);
  const word = () => {
    let w = '';
    const n = 2 + Math.floor(random() * 2);
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    return w[0].toUpperCase() + w.slice(1);
  };
  const towns = Array.from({ length: Math.max(10, Math.floor(count / 50)) }, () => ({ name: word(), lat: random() * 120 - 55, lon: random() * 340 - 170 }));
  const records: PlaceRecord[] = [];
  for (const town of towns) records.push({ kind: 'settlement', name: town.name, alt_names: null, lat: town.lat, lon: town.lon, importance: 0.5 + random() * 0.4, city: null, country: null });
  while (records.length < count) {
    const town = towns[Math.floor(random() * towns.length)];
    const r = random();
    const kind: PlaceRecord['kind'] = r < 0.7 ? 'street' : r < 0.85 ? 'station' : 'landmark';
    const name = kind === 'street' ? STREET_FORMS[Math.floor(random() * STREET_FORMS.length)](word()) : `${word()} ${kind === 'station' ? 'Station' : 'Museum'}`;
    records.push({ kind, name, alt_names: null, lat: town.lat + (random() - 0.5) * 0.1, lon: town.lon + (random() - 0.5) * 0.1, importance: 0.2 + random() * 0.3, city: town.name, country: null });
  }
  const started = performance.now();
  const index = buildPlaceIndex(records);
  const buildMs = performance.now() - started;

  const sample = Array.from({ length: 4096 }, () => records[Math.floor(random() * records.length)]);
  const misspelled = sample.map((p) => {
    const at = 1 + Math.floor(random() * (p.name.length - 2));
    return p.name.slice(0, at) + (p.name[at] === 'x' ? 'y' : 'x') + p.name.slice(at + 1);
  });
  let i = 0;
  const next = () => (i = (i + 1) & 4095);
  const stats = await latencies(
    {
      'place lookup, exact name': () => index.find({ text: sample[next()].name, country: null, near: null }),
      'place lookup, "street, city"': () => {
        const p = sample[next()];
        return index.find({ text: p.city ? `${p.name}, ${p.city}` : p.name, country: null, near: null });
      },
      'place lookup, one letter wrong': () => index.find({ text: misspelled[next()], country: null, near: null }),
    },
    taskMs,
  );
  return { places: records.length, buildMs, stats };
}
