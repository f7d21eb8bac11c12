// The settings of the authorization server (README.md): its own budget of client registrations and the
// bound on clients nobody authorized. Read from the environment and checked here, at the start.
import { integer } from '../config-values.js';
import { accountRateLimitPerMinute } from '../accounts/config.js';

export interface OAuthSettings {
  /** OAuth client registrations (POST /oauth/register) per minute per IP, a budget of their own; 0 lifts it. */
  registrationRateLimitPerMinute: number;
  /** Most stored OAuth clients nobody has authorized yet; registering one more evicts the oldest. */
  oauthPendingClientsMax: number;
}

/** The registrations' budget is the sign-in budget unless set apart. */
export function readOAuthSettings(env: NodeJS.ProcessEnv): OAuthSettings {
  return {
    registrationRateLimitPerMinute: integer(env, 'OAUTH_REGISTRATION_RATE_LIMIT_PER_MINUTE', accountRateLimitPerMinute(env), 0, 1e9),
    oauthPendingClientsMax: integer(env, 'OAUTH_PENDING_CLIENTS_MAX', 10_000, 1, 10_000_000),
  };
}
