// Great-circle arithmetic in "haversine" units (h = sin²(θ/2)), which order like distances and avoid
// asin/sqrt until a result is reported. Lower bounds to boxes follow geokdbush (ISC, Vladimir Agafonkin).
import { EARTH_RADIUS_M } from '../geo/sphere.js';

const RAD = Math.PI / 180;

export function haverSin(theta: number): number {
  const s = Math.sin(theta / 2);
  return s * s;
}

/** Haversine value between two points; cosLat1 is cos(lat1) precomputed once per query. */
export function haverSinDistance(lon1: number, lat1: number, lon2: number, lat2: number, cosLat1: number): number {
  return cosLat1 * Math.cos(lat2 * RAD) * haverSin((lon1 - lon2) * RAD) + haverSin((lat1 - lat2) * RAD);
}

/** The same with cos(lat1)·cos(lat2) precomputed by the caller. */
export function haverSinDistanceCos(lon1: number, lat1: number, lon2: number, lat2: number, cosLat1CosLat2: number): number {
  return cosLat1CosLat2 * haverSin((lon1 - lon2) * RAD) + haverSin((lat1 - lat2) * RAD);
}

export function haverSinToMeters(h: number): number {
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(Math.min(1, h)));
}

export function metersToHaverSin(meters: number): number {
  return meters >= Math.PI * EARTH_RADIUS_M ? 1 : haverSin(meters / EARTH_RADIUS_M);
}

/** Lower bound of the haversine value from a point to any point of a lon/lat box. */
export function haverSinToBox(lon: number, lat: number, cosLat: number, minLon: number, minLat: number, maxLon: number, maxLat: number): number {
  if (lon >= minLon && lon <= maxLon) {
    if (lat < minLat) return haverSin((lat - minLat) * RAD);
    if (lat > maxLat) return haverSin((lat - maxLat) * RAD);
    return 0;
  }
  // West or east of the box: the closest point lies on the nearer meridian edge, at the latitude where the
  // great circle through the query point is perpendicular to it, or at a corner.
  const hLon = Math.min(haverSin((lon - minLon) * RAD), haverSin((lon - maxLon) * RAD));
  const extremumLat = vertexLatitude(lat, hLon);
  if (extremumLat > minLat && extremumLat < maxLat) return partial(hLon, cosLat, lat, extremumLat);
  return Math.min(partial(hLon, cosLat, lat, minLat), partial(hLon, cosLat, lat, maxLat));
}

function partial(hLon: number, cosLat1: number, lat1: number, lat2: number): number {
  return cosLat1 * Math.cos(lat2 * RAD) * hLon + haverSin((lat1 - lat2) * RAD);
}

function vertexLatitude(lat: number, hLon: number): number {
  const cosLon = 1 - 2 * hLon;
  if (cosLon <= 0) return lat > 0 ? 90 : -90;
  return Math.atan(Math.tan(lat * RAD) / cosLon) / RAD;
}
