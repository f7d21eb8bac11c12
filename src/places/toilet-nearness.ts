// "Nearness to the toilets in the data" for ranking places: how many toilets lie within a few dozen
// kilometres, roughly the reach of a nearest search. Counted on a coarse grid once, so scoring a million
// places costs nine array reads each (the whole grid is ~1.6 million counts, 6.5 MB: a Map of the
// occupied cells took ~0.3 s more at a million toilets).

/** Grid cell edge in degrees (about 22 km of latitude): the 3 × 3 cells around a place reach 22 to 44 km. */
const CELL_DEGREES = 0.2;
const LON_CELLS = Math.round(360 / CELL_DEGREES) + 1;
/** Toilet count around a place at which nearness reaches 1. */
const SATURATION = 100;

export interface ToiletPoints {
  lat: ArrayLike<number>;
  lon: ArrayLike<number>;
  /** How many of the entries are toilets; the array length when absent. */
  count?: number;
}

/** 0..1 for a position: 0 with no toilet in the surrounding cells, rising with their number. */
export type Nearness = (lat: number, lon: number) => number;

/** Cells of latitude either side of the equator, with the neighbours of the last. */
const LAT_REACH = Math.round(90 / CELL_DEGREES) + 1;
/** The least cell key, the neighbours' included (keys may run into the next row: see cellKey). */
const FIRST_KEY = -(LAT_REACH * LON_CELLS + (LON_CELLS + 1) / 2);

/** The count's place in the grid: rows of LON_CELLS, and a longitude beyond ±180° runs into the next row. */
function cellKey(latCell: number, lonCell: number): number {
  return latCell * LON_CELLS + lonCell - FIRST_KEY;
}

export class ToiletGrid {
  private readonly counts = new Uint32Array(-2 * FIRST_KEY + 1);

  add(lat: number, lon: number): void {
    this.counts[cellKey(Math.floor(lat / CELL_DEGREES), Math.floor(lon / CELL_DEGREES))]++;
  }

  /** Toilets in the cell of the position and its eight neighbours, scaled logarithmically to 0..1. */
  readonly nearness: Nearness = (lat, lon) => {
    const latCell = Math.floor(lat / CELL_DEGREES);
    const lonCell = Math.floor(lon / CELL_DEGREES);
    let around = 0;
    for (let dLat = -1; dLat <= 1; dLat++) {
      for (let dLon = -1; dLon <= 1; dLon++) around += this.counts[cellKey(latCell + dLat, lonCell + dLon)] ?? 0; // none outside the grid
    }
    return Math.min(1, Math.log1p(around) / Math.log1p(SATURATION));
  };

  static of(points: ToiletPoints): ToiletGrid {
    const grid = new ToiletGrid();
    const count = points.count ?? points.lat.length;
    for (let i = 0; i < count; i++) grid.add(points.lat[i], points.lon[i]);
    return grid;
  }
}
