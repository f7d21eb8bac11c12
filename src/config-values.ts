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
