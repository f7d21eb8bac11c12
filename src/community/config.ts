// The settings of contributions, moderation and the open data dumps: the operator's switch, the human
// check, where dumps go, OSM notes. Read from the environment and checked here, at the start.
import { dirname, join } from 'node:path';
import { baseUrl, boolean, integer, oneOf } from '../config-values.js';

/** Key derivation algorithms of the ALTCHA proof of work this server can verify. */
export const ALTCHA_ALGORITHMS = ['SHA-256', 'SHA-384', 'SHA-512', 'PBKDF2/SHA-256', 'PBKDF2/SHA-384', 'PBKDF2/SHA-512'] as const;
/** Human-check providers (src/community/human-check.ts). */
export const HUMAN_CHECK_PROVIDERS = ['altcha'] as const;

export interface HumanCheckConfig {
  provider: (typeof HUMAN_CHECK_PROVIDERS)[number];
  algorithm: (typeof ALTCHA_ALGORITHMS)[number];
  /** Work per attempt (hash rounds or PBKDF2 iterations). */
  cost: number;
  /** The secret counter lies between half this and this: the attempts a solver needs. */
  maxCounter: number;
  /** How long a challenge may be solved and used. */
  expiresSeconds: number;
}

export interface CommunitySettings {
  /** false: the five contribution operations answer 503. */
  contributionsEnabled: boolean;
  humanCheck: HumanCheckConfig;
  /** Where `npm run dump` writes the open data dumps and the server serves them from. */
  dumpDir: string;
  /** OpenStreetMap API base (…/api/0.6) for anonymous notes about approved reports; null: notes are off. */
  osmNotesApi: string | null;
}

/** `toiletsDb`: the dumps' folder is beside it by default. */
export function readCommunitySettings(env: NodeJS.ProcessEnv, { toiletsDb }: { toiletsDb: string }): CommunitySettings {
  return {
    contributionsEnabled: boolean(env, 'CONTRIBUTIONS_ENABLED', true),
    humanCheck: {
      provider: oneOf(env, 'HUMAN_CHECK', HUMAN_CHECK_PROVIDERS, 'altcha'),
      algorithm: oneOf(env, 'ALTCHA_ALGORITHM', ALTCHA_ALGORITHMS, 'PBKDF2/SHA-256'),
      cost: integer(env, 'ALTCHA_COST', 5000, 1, 1_000_000),
      maxCounter: integer(env, 'ALTCHA_MAX_COUNTER', 10_000, 2, 10_000_000),
      expiresSeconds: integer(env, 'ALTCHA_EXPIRES_SECONDS', 1200, 10, 86_400),
    },
    dumpDir: env.DUMP_DIR || join(dirname(toiletsDb), 'dumps'),
    osmNotesApi: env.OSM_NOTES_API ? baseUrl(env.OSM_NOTES_API, 'OSM_NOTES_API') : null,
  };
}
