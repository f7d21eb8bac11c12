// The overview of the whole coverage for zoomed-out maps (issue 43): the area API answers boxes of at
// most 0.2° and 200 toilets, so a map of a region draws counts instead. Per zoom level 0..MAX_ZOOM the
// toilets are counted in a grid of CELL_PIXELS-wide cells (Web Mercator; zoom levels as MapLibre GL counts
// them, 512 pixels round the world at level 0); each cell is one [lon, lat, count] at the mean position of
// its toilets, snapped to an eighth of the cell, so even a cell of one toilet never gives its
// full-precision position (at MAX_ZOOM the snap is about 100 m). Each level is split into tiles (the
// 512-pixel squares of its zoom, each cell in the tile of its snapped position) and kept as the JSON of
// each tile in one buffer, so a map asks only for the part it shows. Built once per data version and
// change of the toilets marked gone, never per request, and data-oriented (a million toilets on a loaded
// machine): the deepest level in one pass over the positions into a hash table of typed arrays, each
// level above from the one below (a cell is exactly two by two cells of the next level).

/** The deepest overview level; further in, the site lists the toilets themselves (area API, nearest search). */
export const MAX_ZOOM = 12;
/** A cell's side in screen pixels at its zoom level: about one marker and its gap. */
const CELL_PIXELS = 48;
/** The world's width in pixels at level 0. */
const WORLD_PIXELS = 512;
/** A cell's centre of mass is snapped to this fraction of its side. */
const SNAP_FRACTION = 8;
/** Web Mercator's latitude limit. */
const MAX_LAT = 85.0511;

/** The positions counted: rows below `count`, except those in `hidden` (marked gone). */
export interface OverviewInput {
  count: number;
  lat: Float64Array;
  lon: Float64Array;
  /** The rows marked gone, ascending. */
  hidden: Int32Array;
}

/**
 * One level's tiles: tile t (key y × 2^zoom + x, ascending in `tiles`) is
 * `body[offsets[t]..offsets[t + 1])`, the JSON {"cells":[[lon,lat,count],…]} with the most toilets first.
 */
export interface EncodedLevel {
  tiles: Uint32Array;
  offsets: Uint32Array;
  body: Buffer;
}

/** One level's cells as parallel arrays (mercator x and y summed, 0..1), keyed row × columns + column. */
interface Sums {
  /** Cells across the world (not a whole number: 2^zoom × 512 / 48). */
  cellsPerSide: number;
  /** The whole number of columns a key counts with. */
  columns: number;
  size: number;
  keys: Uint32Array;
  x: Float64Array;
  y: Float64Array;
  count: Uint32Array;
}

function mercatorX(lon: number): number {
  // 180° is the antimeridian's west side again: kept in the last column
  return Math.min((lon + 180) / 360, 1 - 1e-12);
}

function mercatorY(lat: number): number {
  const sin = Math.sin((Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}

const lonOf = (x: number) => x * 360 - 180;
const latOf = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

/** Decimals that keep a snapped coordinate exact enough at this level (and no more). */
function decimalsAt(zoom: number): number {
  const snapDegrees = 360 / ((2 ** zoom * WORLD_PIXELS) / CELL_PIXELS) / SNAP_FRACTION;
  return Math.max(0, Math.ceil(-Math.log10(snapDegrees)) + 1);
}

/** Sums of up to `most` cells of level `zoom`, with `add` summing into them through an open-addressing hash table. */
function sumsOf(zoom: number, most: number): { sums: Sums; add: (key: number, x: number, y: number, count: number) => void } {
  const cellsPerSide = (2 ** zoom * WORLD_PIXELS) / CELL_PIXELS;
  const sums: Sums = { cellsPerSide, columns: Math.ceil(cellsPerSide), size: 0, keys: new Uint32Array(most), x: new Float64Array(most), y: new Float64Array(most), count: new Uint32Array(most) };
  const bits = Math.max(4, Math.ceil(Math.log2(most * 2 + 1)));
  const mask = 2 ** bits - 1;
  // each slot holds 1 + the index of its cell in `sums`, 0 when free
  const slots = new Int32Array(mask + 1);
  const add = (key: number, x: number, y: number, count: number) => {
    let slot = Math.imul(key, 0x9e3779b1) >>> (32 - bits);
    for (;;) {
      const at = slots[slot] - 1;
      if (at < 0) {
        const cell = sums.size++;
        slots[slot] = cell + 1;
        sums.keys[cell] = key;
        sums.x[cell] = x;
        sums.y[cell] = y;
        sums.count[cell] = count;
        return;
      }
      if (sums.keys[at] === key) {
        sums.x[at] += x;
        sums.y[at] += y;
        sums.count[at] += count;
        return;
      }
      slot = (slot + 1) & mask;
    }
  };
  return { sums, add };
}

/** The deepest level's sums, from the rows not marked gone. */
function deepest(input: OverviewInput): Sums {
  const { sums, add } = sumsOf(MAX_ZOOM, Math.max(1, input.count - input.hidden.length));
  const side = sums.cellsPerSide;
  let nextHidden = 0;
  for (let row = 0; row < input.count; row++) {
    if (nextHidden < input.hidden.length && input.hidden[nextHidden] === row) {
      nextHidden++;
      continue;
    }
    const x = mercatorX(input.lon[row]);
    const y = mercatorY(input.lat[row]);
    add(Math.floor(y * side) * sums.columns + Math.floor(x * side), x, y, 1);
  }
  return sums;
}

/** The level above: each cell is two by two cells of `below`. */
function above(below: Sums, zoom: number): Sums {
  const { sums, add } = sumsOf(zoom, Math.max(1, below.size));
  for (let i = 0; i < below.size; i++) {
    const row = Math.floor(below.keys[i] / below.columns);
    const column = below.keys[i] - row * below.columns;
    add(Math.floor(row / 2) * sums.columns + Math.floor(column / 2), below.x[i], below.y[i], below.count[i]);
  }
  return sums;
}

/** 2^26: more cells than a level can have, so (a small number) × CELLS + a cell's index is exact in a double. */
const CELLS = 2 ** 26;

/** The cell indices of `sums` by tile, the most toilets first within each (ties by index: the same input, the same bytes). */
function byTile(sums: Sums, tileOf: Uint32Array): Uint32Array {
  const n = sums.size;
  let most = 0;
  for (let i = 0; i < n; i++) most = Math.max(most, sums.count[i]);
  // two native sorts of numbers, no comparator: the cells by count (most first), then by tile keeping that rank
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = (most - sums.count[i]) * CELLS + i;
  keys.sort();
  const cellOfRank = new Uint32Array(n);
  const rankOf = new Uint32Array(n);
  for (let rank = 0; rank < n; rank++) {
    cellOfRank[rank] = keys[rank] % CELLS;
    rankOf[cellOfRank[rank]] = rank;
  }
  for (let i = 0; i < n; i++) keys[i] = tileOf[i] * CELLS + rankOf[i];
  keys.sort();
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = cellOfRank[keys[i] % CELLS];
  return order;
}

const PREFIX = Buffer.from('{"cells":[');
const [ZERO, MINUS, POINT, COMMA, OPEN, CLOSE, END] = ['0', '-', '.', ',', '[', ']', '}'].map((c) => c.charCodeAt(0));

/** Writes the whole number `value` (≥ 0) at `at`; returns the end. */
function writeWhole(out: Uint8Array, at: number, value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  const end = at + digits;
  for (let i = end - 1; i >= at; i--) {
    out[i] = ZERO + (value % 10);
    value = Math.floor(value / 10);
  }
  return end;
}

/** Writes `scaled` / 10^decimals as JavaScript prints that number (no trailing zeros); returns the end. */
function writeDecimal(out: Uint8Array, at: number, scaled: number, decimals: number): number {
  if (scaled < 0) {
    out[at++] = MINUS;
    scaled = -scaled;
  }
  const unit = 10 ** decimals;
  at = writeWhole(out, at, Math.floor(scaled / unit));
  let fraction = scaled % unit;
  if (fraction === 0) return at;
  out[at++] = POINT;
  let digits = decimals;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  const end = at + digits;
  for (let i = end - 1; i >= at; i--) {
    out[i] = ZERO + (fraction % 10);
    fraction = Math.floor(fraction / 10);
  }
  return end;
}

/** The level's cells at their snapped positions, as the JSON of each tile they fall in, written as bytes (a million toilets make no garbage). */
function encoded(sums: Sums, zoom: number): EncodedLevel {
  const snap = sums.cellsPerSide * SNAP_FRACTION;
  const perSide = 2 ** zoom;
  const decimals = decimalsAt(zoom);
  const scale = 10 ** decimals;
  const tileOf = new Uint32Array(sums.size);
  const lon = new Float64Array(sums.size);
  const lat = new Float64Array(sums.size);
  for (let i = 0; i < sums.size; i++) {
    const sx = (Math.floor((sums.x[i] / sums.count[i]) * snap) + 0.5) / snap;
    const sy = (Math.floor((sums.y[i] / sums.count[i]) * snap) + 0.5) / snap;
    tileOf[i] = Math.floor(sy * perSide) * perSide + Math.floor(sx * perSide);
    lon[i] = Math.round(lonOf(sx) * scale);
    lat[i] = Math.round(latOf(sy) * scale);
  }
  const order = byTile(sums, tileOf);
  // a cell is at most ,[-180.dddd,-85.dddd,count] (a count of at most 10 digits), a tile its prefix and ]}
  const out = Buffer.allocUnsafe(sums.size * (2 * (5 + decimals) + 16) + countTiles(order, tileOf) * (PREFIX.length + 2));
  const tiles: number[] = [];
  const offsets: number[] = [0];
  let at = 0;
  for (let next = 0; next < order.length; ) {
    const tile = tileOf[order[next]];
    at += PREFIX.copy(out, at);
    for (let first = true; next < order.length && tileOf[order[next]] === tile; next++, first = false) {
      const i = order[next];
      if (!first) out[at++] = COMMA;
      out[at++] = OPEN;
      at = writeDecimal(out, at, lon[i], decimals);
      out[at++] = COMMA;
      at = writeDecimal(out, at, lat[i], decimals);
      out[at++] = COMMA;
      at = writeWhole(out, at, sums.count[i]);
      out[at++] = CLOSE;
    }
    out[at++] = CLOSE;
    out[at++] = END;
    tiles.push(tile);
    offsets.push(at);
  }
  // kept for the data version's life: only the bytes written, not the room reserved
  return { tiles: Uint32Array.from(tiles), offsets: Uint32Array.from(offsets), body: Buffer.from(out.subarray(0, at)) };
}

function countTiles(order: Uint32Array, tileOf: Uint32Array): number {
  let tiles = 0;
  for (let i = 0; i < order.length; i++) if (i === 0 || tileOf[order[i]] !== tileOf[order[i - 1]]) tiles++;
  return tiles;
}

/** Every level 0..MAX_ZOOM over the rows not marked gone. */
export function buildLevels(input: OverviewInput): EncodedLevel[] {
  const levels: EncodedLevel[] = [];
  let sums = deepest(input);
  for (let zoom = MAX_ZOOM; zoom >= 0; zoom--) {
    if (zoom < MAX_ZOOM) sums = above(sums, zoom);
    levels[zoom] = encoded(sums, zoom);
  }
  return levels;
}

/** Tile x/y of `level` (zoom `zoom`): its JSON, or null when it has no toilet. */
export function tileBody(level: EncodedLevel, zoom: number, x: number, y: number): Buffer | null {
  const key = y * 2 ** zoom + x;
  let low = 0;
  let high = level.tiles.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (level.tiles[middle] === key) return level.body.subarray(level.offsets[middle], level.offsets[middle + 1]);
    if (level.tiles[middle] < key) low = middle + 1;
    else high = middle - 1;
  }
  return null;
}
