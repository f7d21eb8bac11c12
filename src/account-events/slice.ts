// The account events' slice: the accounts database's step 9 (their outbox holds a delivery once; their
// tables came with OAuth's step 4) and the PostgreSQL accounts schema's step 7 (their tables there). The
// MCP methods are the account-mcp slice's. Data only (src/feature.ts): src/features.ts lists it.
import type { FeatureSlice } from '../feature.js';
import { OUTBOX_ONCE_STEP } from './outbox-once-step.js';
import { EVENTS_POSTGRES_STEP } from './postgres-tables.js';

export const ACCOUNT_EVENTS_SLICE = {
  name: 'account-events',
  tables: { accounts: [OUTBOX_ONCE_STEP] },
  postgres: { accounts: [EVENTS_POSTGRES_STEP] },
} satisfies FeatureSlice;
