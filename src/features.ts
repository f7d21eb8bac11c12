// The one list of the service's features, by their slices (src/feature.ts): the registry (src/operations.ts),
// the problem catalogue (src/problems.ts) and the accounts database's steps (src/databases.ts) are made
// from it. A new feature is its folder and one line here (docs/ARCHITECTURE.md, "Adding a feature"). The
// order is the order of the operations in the OpenAPI document; every other use is by name or number.
import type { FeatureSlice } from './feature.js';
import { READ_OPERATIONS, READ_RATE_LIMITS } from './schemas/operations.js';
import { READ_SCHEMAS } from './schemas/resources.js';
import { GUARD_PROBLEMS } from './api/guard-problems.js';
import { COMMUNITY_SLICE } from './community/slice.js';
import { ACCOUNTS_SLICE } from './accounts/slice.js';
import { PARTNERS_SLICE } from './partners/slice.js';
import { MODERATION_SLICE } from './moderation/slice.js';
import { BILLING_SLICE } from './billing/slice.js';
import { OAUTH_SLICE } from './oauth/slice.js';
import { ACCOUNT_EVENTS_SLICE } from './account-events/slice.js';
import { OBSERVE_SLICE } from './observe/slice.js';
import { MCP_SLICE } from './mcp/slice.js';
import { ACCOUNT_MCP_SLICE } from './account-mcp/slice.js';
import { TILES_SLICE } from './tiles/slice.js';
import { OVERVIEW_SLICE } from './overview/slice.js';
import { DUMPS_SLICE } from './dumps/slice.js';
import { CLUSTER_SLICE } from './cluster/slice.js';

/** The public reads, the guard chain's own refusals and the service's own rate limits: its own part, in no feature's folder. */
const READS_SLICE = { name: 'reads', operations: READ_OPERATIONS, schemas: READ_SCHEMAS, problems: GUARD_PROBLEMS, rateLimits: READ_RATE_LIMITS } satisfies FeatureSlice;

export const FEATURES = [READS_SLICE, COMMUNITY_SLICE, ACCOUNTS_SLICE, PARTNERS_SLICE, MODERATION_SLICE, BILLING_SLICE, OAUTH_SLICE, ACCOUNT_EVENTS_SLICE, OBSERVE_SLICE, MCP_SLICE, ACCOUNT_MCP_SLICE, TILES_SLICE, OVERVIEW_SLICE, DUMPS_SLICE, CLUSTER_SLICE] as const;
