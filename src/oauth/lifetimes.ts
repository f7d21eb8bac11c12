// The fixed numbers of the authorization server: the one scope, and how long each credential lives
// (issue 34: codes at most 60 s, access tokens at most an hour, refresh tokens 30 days after the grant
// and 7 days after their last use). README.md's state machine refers to these names.

/** The one scope: read access to the account's partner claims, billing state and profiles, and account events. */
export const SCOPE = 'account:events';
export const CODE_LIFETIME_MS = 60_000;
export const ACCESS_TOKEN_LIFETIME_MS = 3_600_000;
/** A grant (and every refresh token of it) ends this long after the person approved it. */
export const GRANT_ABSOLUTE_MS = 30 * 86_400_000;
/** A refresh token not used for this long has ended, and its grant with it. */
export const REFRESH_IDLE_MS = 7 * 86_400_000;
/** How long a consent page may be answered. */
export const CONSENT_LIFETIME_MS = 10 * 60_000;
/** The last use of a grant is written at most this often (each write costs a disk sync). */
export const TOUCH_EVERY_MS = 60_000;
/** A registered client nobody approved within this long is deleted (registration is open to anyone). */
export const UNAUTHORIZED_CLIENT_MS = 3_600_000;
