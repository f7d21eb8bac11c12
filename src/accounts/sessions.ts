// Signed-in sessions: a cookie holding an opaque random token (256 bits), of which the accounts database
// keeps only the SHA-256 hash, so neither a copy of the database nor a log line lets anyone sign in. A
// session ends at sign-out, at its idle end (no request for SESSION_IDLE_HOURS) or its absolute end
// (SESSION_ABSOLUTE_HOURS after sign-in), whichever comes first; moderators' sessions have shorter ends.
// The cookie is `__Host-session` on https (Secure, no Domain, Path=/), HttpOnly and SameSite=Lax.
import { createHash, randomBytes } from 'node:crypto';
import type { SessionLifetimes } from './config.js';
import type { SessionReader, SignedIn } from '../api/guards.js';
import { sessionCookieName } from '../schemas/operations.js';
import { secretHash, type AccountsStore, type SessionEnds, type SessionRow } from './store.js';
import { deviceLabel } from './device-label.js';

/**
 * How often a session's last use is written: each request would cost a disk write (synchronous=FULL), and
 * an idle end of hours needs no finer clock than a minute.
 */
const TOUCH_EVERY_MS = 60_000;

export class Sessions implements SessionReader {
  readonly cookieName: string;
  private readonly cookieAttributes: string;

  constructor(
    private readonly store: AccountsStore,
    private readonly lifetimes: SessionLifetimes,
    baseUrl: string,
  ) {
    this.cookieName = sessionCookieName(baseUrl);
    const secure = baseUrl.startsWith('https:') ? '; Secure' : '';
    this.cookieAttributes = `; Path=/; HttpOnly; SameSite=Lax${secure}`;
  }

  /**
   * A new session for the account (its passkey just verified) on the device the User-Agent names (a coarse
   * label only, device-label.ts): the row to store and the Set-Cookie value. The caller stores the row, in
   * the transaction that admits the account (store.ts).
   */
  issue(accountId: string, moderator: boolean, nowMs: number, userAgent: string): { row: SessionRow; cookie: string } {
    const token = randomBytes(32).toString('base64url');
    const row = { token_hash: secretHash(token), account_id: accountId, created_at: nowMs, last_seen_at: nowMs, verified_at: nowMs, device: deviceLabel(userAgent) };
    const maxAgeSeconds = Math.floor(this.ends(moderator).absoluteMs / 1000);
    return { row, cookie: `${this.cookieName}=${token}${this.cookieAttributes}; Max-Age=${maxAgeSeconds}` };
  }

  /** The Set-Cookie value that removes the cookie from the browser. */
  clearCookie(): string {
    return `${this.cookieName}=${this.cookieAttributes}; Max-Age=0`;
  }

  async read(cookieHeader: string, nowMs: number): Promise<SignedIn | null> {
    const token = cookieValue(cookieHeader, this.cookieName);
    if (token === null) return null;
    const tokenHash = secretHash(token);
    const session = await this.store.session(tokenHash);
    if (session === null) return null;
    const account = await this.store.account(session.account_id);
    if (account === null) return null; // deleted a moment ago; its sessions went with it
    const moderator = account.moderator === 1;
    const { idleMs, absoluteMs } = this.ends(moderator);
    if (nowMs - session.last_seen_at >= idleMs || nowMs - session.created_at >= absoluteMs) {
      await this.store.deleteSession(tokenHash);
      return null;
    }
    if (nowMs - session.last_seen_at >= TOUCH_EVERY_MS) await this.store.touchSession(tokenHash, nowMs);
    return { account: account.id, moderator, tokenHash, verifiedAtMs: session.verified_at };
  }

  /** The session the Cookie header names, valid or not: what a sign-in replaces. */
  tokenHashOf(cookieHeader: string): Buffer | null {
    const token = cookieValue(cookieHeader, this.cookieName);
    return token === null ? null : secretHash(token);
  }

  /** Times before which a session is over now (the hourly clean-up's: an expired session is refused anyway). */
  endsAt(nowMs: number): SessionEnds {
    const { idleMs, absoluteMs, moderatorIdleMs, moderatorAbsoluteMs } = this.lifetimes;
    return { idle: nowMs - idleMs, absolute: nowMs - absoluteMs, moderatorIdle: nowMs - moderatorIdleMs, moderatorAbsolute: nowMs - moderatorAbsoluteMs };
  }

  private ends(moderator: boolean): { idleMs: number; absoluteMs: number } {
    const l = this.lifetimes;
    return moderator ? { idleMs: l.moderatorIdleMs, absoluteMs: l.moderatorAbsoluteMs } : { idleMs: l.idleMs, absoluteMs: l.absoluteMs };
  }
}

/**
 * A session's public id (listSessions, endSession): derived from the token's hash by one more hash, so it
 * names the session without being able to sign in, and needs no column of its own.
 */
export function sessionId(tokenHash: Buffer): string {
  return `ses_${createHash('sha256').update('session id\0').update(tokenHash).digest('base64url').slice(0, 22)}`;
}

/** The value of cookie `name` in a Cookie header, or null; a token is base64url, anything else is no token. */
function cookieValue(header: string, name: string): string | null {
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    const value = pair.slice(at + 1).trim();
    return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
  }
  return null;
}
