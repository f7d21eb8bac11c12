declare module 'polylabel' {
  /** Pole of inaccessibility of a polygon given as rings of [x, y]; result carries the distance to the nearest edge. */
  export default function polylabel(polygon: number[][][], precision?: number): [number, number] & { distance: number };
}
