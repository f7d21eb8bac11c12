// The contributions' slice: the five contribution operations (proposals, confirmations, ratings, reports,
// corrections) and their challenge, their refusals, the PostgreSQL steps of the overlay and the server key,
// and the settings of contributions, the human check and the dumps.
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue.
import type { FeatureSlice } from '../feature.js';
import { readCommunitySettings } from './config.js';
import { CHALLENGE_ROUTES, CONTRIBUTION_OPERATIONS } from './contribution-operations.js';
import { CONTRIBUTION_SCHEMAS } from './resources.js';
import { COMMUNITY_PROBLEMS } from './problems.js';
import { SERVER_KEY_STEP } from './server-key-step.js';
import { OVERLAY_STEP } from './overlay-step.js';

export const COMMUNITY_SLICE = {
  name: 'community',
  settings: readCommunitySettings,
  operations: [...CONTRIBUTION_OPERATIONS, ...CHALLENGE_ROUTES],
  schemas: CONTRIBUTION_SCHEMAS,
  problems: COMMUNITY_PROBLEMS,
  postgres: { overlay: [OVERLAY_STEP], accounts: [SERVER_KEY_STEP] },
} satisfies FeatureSlice;
