// The cluster schema's layout (DATABASE_URL): the lease that names the replica running the cluster's
// background work (worker-lease.ts). Only the SQL text, so that the cluster's slice can declare it and a
// read thread may load it with the slices.
import type { PostgresStep } from '../storage/postgres.js';

/** The cluster schema's step 1: one row per lease, the replica holding it and until when. */
export const LEASE_STEP: PostgresStep = {
  version: 1,
  name: 'the worker lease',
  sql: `
CREATE TABLE leases (
  name       text PRIMARY KEY,              -- 'worker'
  holder     text NOT NULL,                 -- the replica's id: host, process id and a random part
  expires_at bigint NOT NULL,               -- epoch ms by the holder's clock when it last renewed
  since      bigint NOT NULL                -- epoch ms when this holder took it
);`,
};
