// The accounts' own rate-limit policy: sign-in and registration attempts are few, so a stolen cookie or an
// enumeration script gets nowhere fast; its quota is ACCOUNT_RATE_LIMIT_PER_MINUTE (config.ts). Data only:
// the slice lists its budget, the operations name the policy.
import type { RateLimitBudget, RateLimitPolicy } from '../schemas/operations.js';

export const ATTEMPTS_POLICY = { name: 'accounts-per-ip', quota: 10, windowSeconds: 60 } as const satisfies RateLimitPolicy;

/** Addresses counted exactly for sign-in attempts: far fewer than readers, so a smaller table (3 MiB). */
const ATTEMPT_KEYS = 100_000;

export const ACCOUNT_RATE_LIMITS: readonly RateLimitBudget[] = [{ policy: ATTEMPTS_POLICY, setting: 'accountRateLimitPerMinute', maxKeys: ATTEMPT_KEYS }];
