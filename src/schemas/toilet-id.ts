// The toilet id's schema, in a module of its own: the routes that only check an id (the overview's titles)
// load no other schema.
export const TOILET_ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', title: 'a toilet id of 1 to 64 letters, digits, _ or -' } as const;
