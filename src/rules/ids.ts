// Toilet ids as numbers: the key of an id orders ids by number, then type, and fits a double. A module of
// its own so that the importer's database thread can use it without loading the read path's modules.

/** Id prefixes by id type code: OSM node, way, relation, and a toilet approved from a community submission. */
export const ID_TYPES = ['n', 'w', 'r', 'c_'] as const;

/** The numeric key of an id (n123 → 123*4+0, c_5 → 5*4+3), or -1 when it is not one. */
export function idKey(id: string): number {
  const type = ID_TYPES.findIndex((prefix) => id.startsWith(prefix));
  if (type < 0) return -1;
  const start = ID_TYPES[type].length;
  if (id.length <= start || id.length > start + 16) return -1;
  let n = 0;
  for (let i = start; i < id.length; i++) {
    const d = id.charCodeAt(i) - 48;
    if (d < 0 || d > 9 || (i === start && d === 0)) return -1;
    n = n * 10 + d;
  }
  return n * 4 + type;
}
