// Every operation the service serves: the registry, the public reads' (src/schemas/operations.ts) and each
// feature's entries (its folder's operations.ts). The router, the guards, the OpenAPI document and the
// check of DEPRECATED_OPERATIONS read this list. A feature with operations of its own adds its list here.
// Fixed paths come before templated ones (`/toilets/nearest` before `/toilets/{id}`).
import { READ_OPERATIONS, type OperationSpec } from './schemas/operations.js';
import { CONTRIBUTION_OPERATIONS } from './community/contribution-operations.js';
import { ACCOUNT_OPERATIONS } from './accounts/operations.js';
import { PARTNER_OPERATIONS } from './partners/operations.js';
import { MODERATION_OPERATIONS } from './moderation/operations.js';
import { BILLING_OPERATIONS } from './billing/operations.js';

export const OPERATIONS: readonly OperationSpec[] = collect(READ_OPERATIONS, CONTRIBUTION_OPERATIONS, ACCOUNT_OPERATIONS, PARTNER_OPERATIONS, MODERATION_OPERATIONS, BILLING_OPERATIONS);

/** One list; an operationId or a method and path two features both declare is a mistake. */
function collect(...lists: readonly (readonly OperationSpec[])[]): readonly OperationSpec[] {
  const operations = lists.flat();
  const seen = new Set<string>();
  for (const { operationId, method, path } of operations) {
    for (const key of [operationId, `${method} ${path}`]) {
      if (seen.has(key)) throw new Error(`two operations are ${key}: each operation is declared once, by one feature`);
      seen.add(key);
    }
  }
  return operations;
}
