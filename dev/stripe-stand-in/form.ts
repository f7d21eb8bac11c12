// Reads the request bodies the `stripe` SDK sends: application/x-www-form-urlencoded with bracket keys
// (`line_items[0][price]=price_x`, `metadata[listing]=pl_…`), as Stripe's API reads them, into nested
// objects; an object whose keys are all indexes 0..n-1 is an array.

export type FormValue = string | FormValue[] | { [key: string]: FormValue };

export function parseForm(body: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, FormValue> = root;
    path.forEach((name, i) => {
      if (i === path.length - 1) {
        node[name] = value;
        return;
      }
      const next = node[name];
      if (typeof next !== 'object' || next === null) node[name] = {};
      node = node[name] as Record<string, FormValue>;
    });
  }
  return arrays(root) as Record<string, FormValue>;
}

function arrays(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((key) => [key, arrays(value[key])] as const);
  if (keys.length > 0 && keys.every((key, i) => key === String(i))) return entries.map(([, item]) => item);
  return Object.fromEntries(entries);
}

/** A stable text of a parsed body, to tell a reused idempotency key sent with other parameters. */
export function canonical(value: FormValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
    .join(',')}}`;
}
