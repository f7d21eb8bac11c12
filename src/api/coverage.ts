// The area the data covers, as answers use it: coverage never removes a result, it only explains an empty
// one. When a search finds nothing and the position asked about (coordinates, a resolved place, or a
// box) lies outside the imported extract's bounds, the display note says which region this service
// covers, so "no toilets" is not mistaken for "no toilets there".
import { asciiJson } from '../rules/ascii-json.js';
import { fragment } from '../rules/json-bytes.js';
import type { SourceInfo } from '../toilets/snapshot.js';
import { DISPLAY_NOTE_TEXT } from './attribution.js';

export type Coverage = NonNullable<SourceInfo['coverage']>;

/** Whether a point lies inside the bounds (a west edge east of the east edge crosses the antimeridian). */
export function covers({ bounds: [west, south, east, north] }: Coverage, lat: number, lon: number): boolean {
  if (lat < south || lat > north) return false;
  return west <= east ? lon >= west && lon <= east : lon >= west || lon <= east;
}

/** Whether a box shares any point with the bounds. */
export function touches({ bounds: [west, south, east, north] }: Coverage, box: { west: number; south: number; east: number; north: number }): boolean {
  if (box.north < south || box.south > north) return false;
  if (west > east) return box.east >= west || box.west <= east; // the coverage crosses the antimeridian
  return box.east >= west && box.west <= east;
}

/** "Monaco (longitude 7.40921 to 7.44864, latitude 43.72335 to 43.75169)". */
export function describeCoverage({ name, bounds: [west, south, east, north] }: Coverage): string {
  const r = (x: number) => Math.round(x * 1e5) / 1e5;
  return `${name} (longitude ${r(west)} to ${r(east)}, latitude ${r(south)} to ${r(north)})`;
}

/** Why an empty answer is empty when the position lies outside the data: for the display note and MCP text. */
export function outsideCoverageText(coverage: Coverage, what: 'position' | 'box'): string {
  return `This service has data for ${describeCoverage(coverage)} only. The ${what === 'box' ? 'area' : 'position'} asked about lies outside it, so an empty result says nothing about toilets there; search within ${coverage.name}, or use a service that covers the place.`;
}

/**
 * The answer tails (attribution and display note) of empty answers outside the coverage, made once per
 * loaded data (the coverage object is the snapshot's own).
 */
export class OutsideCoverageTails {
  private coverage: Coverage | null = null;
  private tails: Record<'position' | 'box', Uint8Array> | null = null;

  constructor(private readonly attribution: string) {}

  tail(coverage: Coverage, what: 'position' | 'box'): Uint8Array {
    if (coverage !== this.coverage || this.tails === null) {
      this.coverage = coverage;
      const make = (kind: 'position' | 'box') => fragment(`,"attribution":${this.attribution},"display_note":${asciiJson(`${DISPLAY_NOTE_TEXT} ${outsideCoverageText(coverage, kind)}`)}}`);
      this.tails = { position: make('position'), box: make('box') };
    }
    return this.tails[what];
  }
}
