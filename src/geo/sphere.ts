// Spherical-earth math on WGS84 degrees. Called per candidate on the search hot path, so it
// allocates nothing and uses only scalar arithmetic.

/** Mean earth radius (IUGG), metres. */
export const EARTH_RADIUS_M = 6371008.8;

const RADIANS_PER_DEGREE = Math.PI / 180;

/** Great-circle distance in metres (haversine; stable for short distances). */
export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const sinHalfDLat = Math.sin(((lat2 - lat1) * RADIANS_PER_DEGREE) / 2);
  const sinHalfDLon = Math.sin(((lon2 - lon1) * RADIANS_PER_DEGREE) / 2);
  const h =
    sinHalfDLat * sinHalfDLat +
    Math.cos(lat1 * RADIANS_PER_DEGREE) * Math.cos(lat2 * RADIANS_PER_DEGREE) * sinHalfDLon * sinHalfDLon;
  // min() guards asin against h creeping past 1 through rounding for antipodal points.
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(Math.min(1, h)));
}

/** Initial great-circle bearing from origin to target: whole degrees clockwise from north, 0..359. */
export function initialBearingDegrees(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const phi1 = lat1 * RADIANS_PER_DEGREE;
  const phi2 = lat2 * RADIANS_PER_DEGREE;
  const dLambda = (lon2 - lon1) * RADIANS_PER_DEGREE;
  const y = Math.sin(dLambda) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLambda);
  // atan2 gives -180..180; shift, round, then fold 360 back to 0.
  return Math.round(Math.atan2(y, x) / RADIANS_PER_DEGREE + 360) % 360;
}
