// The toilet id's schema, in a module of its own so that the body schemas of resources.ts and those it
// gathers (moderation-resources.ts) share it without importing each other.
export const TOILET_ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', title: 'a toilet id of 1 to 64 letters, digits, _ or -' } as const;
