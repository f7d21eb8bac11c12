// The settings of a replica's fetch of the files the import job publishes (README.md, "Configuration";
// docs/SCALING.md). Read from the environment and checked here, at the start.
import { ConfigError, integer } from '../config-values.js';

/** Where a replica fetches its source files from, and how (README.md, "Configuration"; docs/SCALING.md). */
export interface SourceFetchConfig {
  /** The published source database (http or https, credentials and query allowed); null: none, import locally. */
  toiletsUrl: string | null;
  /** The published tiles file; null: none. */
  tilesUrl: string | null;
  /** Seconds between two checks of each published file's checksum (SOURCE_POLL_SECONDS). */
  pollSeconds: number;
  /** A transfer that sends nothing for this long is given up (SOURCE_FETCH_TIMEOUT_MS). */
  timeoutMs: number;
  /** A file larger than this is refused (SOURCE_FETCH_MAX_MB, in bytes here). */
  maxBytes: number;
}

export function readSourceFetchConfig(env: NodeJS.ProcessEnv): SourceFetchConfig {
  const toiletsUrl = publishedFileUrl(env, 'TOILETS_DB_URL');
  if (toiletsUrl !== null && env.TOILETS_EXTRACT) throw new ConfigError('TOILETS_DB_URL and TOILETS_EXTRACT are both set: a replica fetches the source database the import job publishes and imports nothing; unset TOILETS_EXTRACT (set it on the import job instead)');
  return {
    toiletsUrl,
    tilesUrl: publishedFileUrl(env, 'TILES_DB_URL'),
    pollSeconds: integer(env, 'SOURCE_POLL_SECONDS', 60, 1, 86_400),
    timeoutMs: integer(env, 'SOURCE_FETCH_TIMEOUT_MS', 30_000, 100, 600_000),
    maxBytes: integer(env, 'SOURCE_FETCH_MAX_MB', 16_384, 1, 1_048_576) * 1_048_576,
  };
}

/** An http(s) URL of a published file. The value is never repeated in a message: it may hold a password or a token. */
function publishedFileUrl(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  if (!raw) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  const example = 'e.g. http://10.0.0.5:8081/toilets.db (credentials as https://user:password@host/…)';
  if (url === null) throw new ConfigError(`${name} is not a URL: use the address the import job publishes the file at, ${example}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} uses ${url.protocol.replace(/:$/, '')}, which the fetch does not support: use an http:// or https:// address, ${example}`);
  if (url.hash) throw new ConfigError(`${name} has a #fragment, which is never sent to a server: remove it`);
  if (url.pathname === '/' || url.pathname.endsWith('/')) throw new ConfigError(`${name} names a folder, not a file: add the file's name, ${example}`);
  return url.href;
}
