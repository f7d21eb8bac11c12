// Reading settings from the environment: the parsers every feature's config.ts uses, so that each
// variable is read, checked and explained the same way (a bad value names the variable, the values that
// are valid and the default). Node modules only.

/** A setting with a value the service cannot use: the start stops with its message. */
export class ConfigError extends Error {}

export function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name}=${raw} is not valid: use a whole number from ${min} to ${max} (default ${fallback})`);
  }
  return value;
}

export function fraction(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new ConfigError(`${name}=${raw} is not valid: use a number from 0 to 1, e.g. 0.01 for one in a hundred (default ${fallback})`);
  return value;
}

export function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name}=${raw} is not valid: use true or false (default ${fallback})`);
}

export function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!values.includes(raw as T)) throw new ConfigError(`${name}=${raw} is not valid: use one of ${values.join(', ')} (default ${fallback})`);
  return raw as T;
}

export function baseUrl(raw: string, name = 'BASE_URL'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name}=${raw} is not a URL: use e.g. https://toilets.example.org`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name}=${raw} must start with http:// or https://`);
  if (url.search || url.hash) throw new ConfigError(`${name}=${raw} must not carry a query or fragment`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** `raw` as an http or https URL, or null when it is not one. */
export function httpUrl(raw: string): URL | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** DATABASE_URL as the service keeps it: the URL itself, for the driver only, and what messages may show. */
export interface PostgresUrl {
  /** The whole URL, password included: handed to the driver, never written anywhere. */
  url: string;
  /** The URL with its password replaced by ***: what logs and messages show. */
  shown: string;
  /** The password as written and decoded: cut out of any driver message before it is shown. */
  secrets: readonly string[];
}

/**
 * A postgresql:// (or postgres://) URL: a host (or ?host= for a socket folder) and a database name. The
 * password never reaches a message: a value that is not such a URL is not shown at all.
 */
export function postgresUrl(raw: string | undefined, name = 'DATABASE_URL'): PostgresUrl | null {
  if (raw === undefined || raw === '') return null;
  const example = 'postgresql://USER:PASSWORD@HOST:5432/DATABASE';
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // said below
  }
  // only a postgresql: URL is known to keep its password where it can be hidden ("user:pw@host/db" parses with the scheme "user:")
  if (url === null || (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:')) {
    throw new ConfigError(`${name} is not a postgresql:// URL (its value is not shown: it may hold a password): use ${example}`);
  }
  const secrets = [url.password, safeDecode(url.password), url.searchParams.get('password') ?? ''].filter((secret) => secret !== '');
  const hidden = new URL(raw);
  if (hidden.password !== '') hidden.password = '***';
  if (hidden.searchParams.has('password')) hidden.searchParams.set('password', '***');
  const shown = hidden.href;
  if (url.hostname === '' && !url.searchParams.has('host')) throw new ConfigError(`${name}=${shown} names no host: use ${example} (or ?host=/run/postgresql for a socket)`);
  if (url.pathname.length < 2) throw new ConfigError(`${name}=${shown} names no database: add it after the host, as in ${example}`);
  return { url: raw, shown, secrets: [...new Set(secrets)] };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
