// The settings of accounts (README.md, "Settings"): the sign-in budget, how long sessions last, where the
// accounts database lives. Read from the environment and checked here, at the start.
import { dirname, join, resolve } from 'node:path';
import { ConfigError, integer } from '../config-values.js';

export interface AccountSettings {
  /** Sign-in and registration attempts per minute per IP (src/accounts); 0 lifts the limit. */
  accountRateLimitPerMinute: number;
  /** How long a signed-in session lasts (docs/SECURITY.md says why these defaults). */
  sessions: SessionLifetimes;
  /** Personal and secret data (src/accounts/): opened by the main thread only, never by the dump. */
  accountsDb: string;
}

/** Idle (since the last request) and absolute (since sign-in) ends of a session, in milliseconds. */
export interface SessionLifetimes {
  idleMs: number;
  absoluteMs: number;
  /** Moderators' sessions, shorter: a stolen one can change what everyone sees. */
  moderatorIdleMs: number;
  moderatorAbsoluteMs: number;
}

/** `databases`: the service's, the accounts database is beside the overlay and never either of them. */
export function readAccountSettings(env: NodeJS.ProcessEnv, databases: { overlayDb: string; toiletsDb: string }): AccountSettings {
  return {
    accountRateLimitPerMinute: accountRateLimitPerMinute(env),
    sessions: sessionLifetimes(env),
    accountsDb: accountsDb(env, databases.overlayDb, databases.toiletsDb),
  };
}

/** ACCOUNT_RATE_LIMIT_PER_MINUTE: the sign-in budget, also the default of budgets like it (OAuth's registrations). */
export function accountRateLimitPerMinute(env: NodeJS.ProcessEnv): number {
  return integer(env, 'ACCOUNT_RATE_LIMIT_PER_MINUTE', 10, 0, 1e9);
}

const HOUR_MS = 3_600_000;

/** SESSION_IDLE_HOURS etc.; an idle end longer than the absolute one is a mistake worth saying. */
function sessionLifetimes(env: NodeJS.ProcessEnv): SessionLifetimes {
  const pair = (idleName: string, idleHours: number, absoluteName: string, absoluteHours: number) => {
    const idle = integer(env, idleName, idleHours, 1, 24 * 366);
    const absolute = integer(env, absoluteName, absoluteHours, 1, 24 * 366);
    if (idle > absolute) throw new ConfigError(`${idleName}=${idle} is longer than ${absoluteName}=${absolute}: a session ends at the absolute end whatever its use; make the idle end shorter`);
    return [idle * HOUR_MS, absolute * HOUR_MS];
  };
  const [idleMs, absoluteMs] = pair('SESSION_IDLE_HOURS', 14 * 24, 'SESSION_ABSOLUTE_HOURS', 30 * 24);
  const [moderatorIdleMs, moderatorAbsoluteMs] = pair('MODERATOR_SESSION_IDLE_HOURS', 12, 'MODERATOR_SESSION_ABSOLUTE_HOURS', 7 * 24);
  return { idleMs, absoluteMs, moderatorIdleMs, moderatorAbsoluteMs };
}

/** ACCOUNTS_DB, beside the overlay database by default; never the same file as another database. */
function accountsDb(env: NodeJS.ProcessEnv, overlayDb: string, toiletsDb: string): string {
  const fallback = join(dirname(overlayDb), 'accounts.db');
  const path = env.ACCOUNTS_DB || fallback;
  for (const [name, other] of [['OVERLAY_DB', overlayDb], ['TOILETS_DB', toiletsDb]]) {
    if (resolve(path) === resolve(other)) throw new ConfigError(`ACCOUNTS_DB=${path} is the file ${name} names: personal data needs a database of its own (default ${fallback})`);
  }
  return path;
}
