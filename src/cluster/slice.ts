// The cluster's slice: the PostgreSQL step of its schema (the worker lease) and its settings (REDIS_URL,
// WORKER_LEASE_SECONDS). Data only (src/feature.ts): src/features.ts lists it, so src/databases.ts migrates
// the schema with the others.
import type { FeatureSlice } from '../feature.js';
import { readClusterSettings } from './config.js';
import { LEASE_STEP } from './lease-step.js';

export const CLUSTER_SLICE = {
  name: 'cluster',
  settings: readClusterSettings,
  postgres: { cluster: [LEASE_STEP] },
} satisfies FeatureSlice;
