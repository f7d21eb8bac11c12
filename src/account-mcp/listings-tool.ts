// Tool get_my_partner_listings: the caller's own claims and partner listings (claim status, listing and
// toilet, plan, profile with conditions, hours, live switch and closed_until), read with the same function
// as the REST operation listMyPartnerListings and checked against its schemas. The account is the one the
// access token's grant belongs to: no argument can name another.
import type { CallToolResult, McpServer, ToolAnnotations } from '@modelcontextprotocol/server';
import type { Logger } from '../log.js';
import { toolArguments, toolOutput } from '../mcp/arguments.js';
import { inputSchemaOf, operationIn } from '../schemas/operations.js';
import { PARTNER_OPERATIONS } from '../partners/operations.js';
import { principalOf, type AccountFeature } from './endpoint.js';
import { STORAGE_RETRY_SECONDS } from '../api/server-hooks.js';
import { storageTrouble } from '../storage/errors.js';

/** Reads the account's listings (src/partners/listings.ts, bound to its context). */
export type ListingsReader = (accountId: string) => Promise<{ listings: unknown[] }>;

/** Reads one account's own data; the same call gives the same answer until the account changes something. */
const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const DESCRIPTION = [
  "Lists the signed-in account's business claims and partner listings, oldest first: each with the claim's status (pending, approved, rejected, withdrawn)",
  "and the moderator's reason, the listing id (pl_...), the toilet's id and name, the plan (tier, running or not), the profile",
  '(conditions, opening hours, live switch, closed_until) and whether the partner label shows now, with a notice saying what to do next;',
  'for a running Plus plan, monthly figures (times shown in answers and opened, this month and the 12 before it, UTC).',
  'Read-only: changes are made on the website. Takes no arguments.',
].join(' ');

function makeSchemas() {
  return { input: toolArguments<Record<string, never>>(inputSchemaOf(operationIn(PARTNER_OPERATIONS, 'listMyPartnerListings'))), output: toolOutput('PartnerListingList') };
}

let sharedSchemas: ReturnType<typeof makeSchemas> | undefined;

export function listingsTool(read: ListingsReader, log: Logger): AccountFeature {
  // once per process, so each validator compiles once however many endpoints it serves (a test makes many)
  const { input, output } = (sharedSchemas ??= makeSchemas());
  return {
    register(server: McpServer): void {
      server.registerTool(
        'get_my_partner_listings',
        { title: 'My partner listings', description: DESCRIPTION, inputSchema: input, outputSchema: output, annotations: READ_ONLY },
        async (_args, ctx): Promise<CallToolResult> => {
          try {
            const answer = await read(principalOf(ctx.http?.authInfo).account);
            return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer };
          } catch (error) {
            const trouble = storageTrouble(error);
            log.error(trouble === null ? 'get_my_partner_listings failed' : `storage unavailable: ${trouble}`, { error: (error as Error)?.stack ?? String(error) });
            const why = trouble === null ? '' : `: ${trouble}`;
            return { content: [{ type: 'text', text: `The listings cannot be read right now${why}. Try again in ${STORAGE_RETRY_SECONDS} seconds.` }], isError: true };
          }
        },
      );
    },
  };
}
