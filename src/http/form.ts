// The one reader of form bodies (application/x-www-form-urlencoded): the guard chain reads a registry
// entry's declared form with it (src/api/guards.ts), and the pages that answer a bad form themselves too.

/**
 * The fields of a form body; null when it is not one (wrong content type) or repeats a field, which RFC
 * 6749 section 3.1 forbids (a repeated field could mean two different things to two readers).
 */
export function formFields(contentType: string, body: Buffer | null): Map<string, string> | null {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) return null;
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams((body ?? Buffer.alloc(0)).toString('utf8'))) {
    if (fields.has(name)) return null;
    fields.set(name, value);
  }
  return fields;
}
