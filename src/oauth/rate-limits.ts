// The authorization server's own rate-limit policy: client registrations come from anywhere, so they have a
// budget of their own and never spend the sign-in one of the addresses they share; its quota is
// REGISTRATION_RATE_LIMIT_PER_MINUTE (config.ts). Data only: the slice lists its budget.
import type { RateLimitBudget, RateLimitPolicy } from '../schemas/operations.js';

export const REGISTRATION_POLICY = { name: 'registration-per-ip', quota: 10, windowSeconds: 60 } as const satisfies RateLimitPolicy;

/** Like the sign-in attempts: few callers, a smaller table. */
const REGISTRATION_KEYS = 100_000;

export const OAUTH_RATE_LIMITS: readonly RateLimitBudget[] = [{ policy: REGISTRATION_POLICY, setting: 'registrationRateLimitPerMinute', maxKeys: REGISTRATION_KEYS }];
