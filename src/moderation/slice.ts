// The moderation's slice: the moderators' queue and actions on the site, and their refusals.
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue. Its
// subcommands of `npm run moderate` are code: named here, loaded by the command only (moderate-cli.ts).
import type { FeatureSlice } from '../feature.js';
import { MODERATION_OPERATIONS } from './operations.js';
import { MODERATION_SCHEMAS } from './resources.js';
import { MODERATION_PROBLEMS } from './problems.js';

export const MODERATION_SLICE = {
  name: 'moderation',
  operations: MODERATION_OPERATIONS,
  schemas: MODERATION_SCHEMAS,
  problems: MODERATION_PROBLEMS,
  commands: () => import('./commands.js'),
} satisfies FeatureSlice;
