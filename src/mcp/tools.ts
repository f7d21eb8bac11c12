// The public MCP tools: find_toilets_near and get_toilet, the REST reads findToiletsNear and getToilet for
// models. Arguments and results use the operations' own schemas (src/schemas); answers are the very JSON
// REST sends, as structuredContent and as text, then the credit line the data licence asks for.
import type { CallToolResult, McpServer, ServerContext, ToolAnnotations } from '@modelcontextprotocol/server';
import { PlaceLookupUnavailable, type Origin, type Reads } from '../api/reads.js';
import { isCountryCode } from '../geo/where.js';
import type { PlaceLookup } from '../places/lookup.js';
import type { Logger } from '../log.js';
import { inputSchemaOf, operationIn, READ_OPERATIONS } from '../schemas/operations.js';
import type { FindParams } from '../schemas/params.js';
import type { JsonSchema } from '../schemas/refs.js';
import { toolArguments, toolOutput } from './arguments.js';
import { hostHintOrigin } from './host-hint.js';
import type { Pieces } from '../rules/json-bytes.js';

export interface ToolDeps {
  reads: Reads;
  /** Places the host's city hint when it sends no coordinates; null: such hints are ignored. */
  places: PlaceLookup | null;
  now: () => number;
  log: Logger;
  onToolCall?(tool: string, outcome: 'ok' | 'error'): void;
}

/** Reads only, same answer for the same call and data, and the data is the open world's map. */
const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

const FIND_DESCRIPTION = [
  'Finds the public toilets nearest to a place or coordinate, nearest first, each with distance_m, walk_min and bearing,',
  'whether it is open now, access, fee, wheelchair access and changing table.',
  'Pass `place` (what the user named: a street, station, landmark or town; add `country` if the name is ambiguous) or `lat` and `lon`.',
  'Never guess a location. If the user has not said where they are, call without place and coordinates:',
  "the host's approximate location of the user is used when it sends one (origin.source is then `host_hint`; say the position is approximate);",
  'otherwise the result has status `needs_location` and a question in `ask_user`: ask the user that question and call again with their answer.',
  'Status `place_not_found` also means: ask the `ask_user` question.',
  '`no_results` means nothing matched nearby; the result ends with a sentence saying why (the filters sent, or a position outside the region this service covers): tell the user.',
  'The filters open_now, wheelchair, changing_table, free and no_purchase_needed only narrow the results.',
  'Always show attribution.text with the results.',
].join(' ');

const GET_DESCRIPTION = [
  'Fetches one public toilet by the `id` of a find_toilets_near result (e.g. n123456): position, opening hours and whether it is open now,',
  'access, fee, wheelchair access, changing table, cleanliness ratings and directions links, and `details` when mapped: which central key opens it (RADAR, Eurokey),',
  'Changing Places, where the changing table is, door width and step-free access, hand washing, drinking water, showers, the floor. Use it to refresh or detail a toilet already found.',
  'An id no toilet has (or one marked gone) gives an error result. Always show attribution.text.',
].join(' ');

/** Argument descriptions that tell a model when to ask the user rather than what the REST parameter is. */
const FIND_ARGUMENT_NOTES: Record<string, string> = {
  place: 'What the user named: a street, station, landmark or town. Leave out place, lat and lon when the user has not said where they are; the answer then asks them.',
  lat: 'Latitude of the user (WGS84 degrees), only when known precisely, e.g. shared by the user; send together with lon.',
  lon: 'Longitude of the user (WGS84 degrees); send together with lat.',
};
const GET_ARGUMENT_NOTES: Record<string, string> = {
  id: 'The `id` of a find_toilets_near result, e.g. n123456 (an OpenStreetMap node).',
};

/** The tools of this server, as a client names them. */
export type ToolName = 'find_toilets_near' | 'get_toilet';
export const TOOL_NAMES: readonly ToolName[] = ['find_toilets_near', 'get_toilet'];

/**
 * A read tool's outcome before it becomes a result: the read's ASCII answer (and, for a no_results
 * answer, the sentence saying why), or a tool error. The SDK path makes a CallToolResult of it
 * (resultOf), the fast path writes its bytes (answer-bytes.ts).
 */
export type ToolAnswer = ReadAnswer | CallToolResult;
export interface ReadAnswer {
  /** The read's answer; a view of the reads' buffer when the call answered directly (see Reads). */
  readonly body: Buffer;
  readonly note: string | null;
}
/** An answer now, or once a place lookup has answered. */
export type ToolOutcome = ToolAnswer | Promise<ToolAnswer>;

export function isRead(answer: ToolAnswer): answer is ReadAnswer {
  return (answer as Partial<ReadAnswer>).body !== undefined;
}

/** The tools' arguments and results, as they list and check them. */
function makeToolSchemas() {
  return {
    arguments: {
      find_toilets_near: toolArguments<FindParams>(withNotes(inputSchemaOf(operationIn(READ_OPERATIONS, 'findToiletsNear')), FIND_ARGUMENT_NOTES), (args) =>
        args.country !== undefined && !isCountryCode(args.country)
          ? [{ name: 'country', reason: `${args.country} is not an ISO 3166-1 alpha-2 country code; use one such as PT, LI or AD` }]
          : [],
      ),
      get_toilet: toolArguments<{ id: string }>(withNotes(inputSchemaOf(operationIn(READ_OPERATIONS, 'getToilet')), GET_ARGUMENT_NOTES)),
    },
    output: { find_toilets_near: toolOutput('FindResult'), get_toilet: toolOutput('ToiletAnswer') },
  };
}

let sharedSchemas: ReturnType<typeof makeToolSchemas> | undefined;
/** Made once per process (per thread), so each validator compiles once however many endpoints it serves (a test makes many). */
function toolSchemas(): ReturnType<typeof makeToolSchemas> {
  return (sharedSchemas ??= makeToolSchemas());
}

export class ToolSet {
  private readonly arguments = toolSchemas().arguments;
  private readonly output = toolSchemas().output;

  constructor(private readonly deps: ToolDeps) {}

  /** Adds both tools to a server instance (the schemas and handlers are shared by every instance). */
  register(server: McpServer): void {
    const meta = (ctx: ServerContext) => ctx.mcpReq._meta;
    server.registerTool(
      'find_toilets_near',
      { title: 'Find public toilets nearby', description: FIND_DESCRIPTION, inputSchema: this.arguments.find_toilets_near, outputSchema: this.output.find_toilets_near, annotations: READ_ONLY },
      (args, ctx) => this.resultNow('find_toilets_near', this.findNear(args, meta(ctx))),
    );
    server.registerTool(
      'get_toilet',
      { title: 'Get one public toilet', description: GET_DESCRIPTION, inputSchema: this.arguments.get_toilet, outputSchema: this.output.get_toilet, annotations: READ_ONLY },
      (args) => this.resultNow('get_toilet', this.getToilet(args.id)),
    );
  }

  /** The SDK's result, made before anything else runs: a direct answer is a view of the reads' buffer. */
  private resultNow(tool: ToolName, outcome: ToolOutcome): CallToolResult | Promise<CallToolResult> {
    return outcome instanceof Promise ? outcome.then((later) => resultOf(this.counted(tool, later))) : resultOf(this.counted(tool, outcome));
  }

  /**
   * Runs a tool on `args` as the SDK does: checked (and completed with defaults) by the schema the tool
   * lists, then called. Null when the arguments fail the schema: the SDK's answer says so in its words.
   * `args` itself is left as it was.
   */
  call(tool: ToolName, args: Record<string, unknown>, meta: Readonly<Record<string, unknown>> | undefined): ToolOutcome | null {
    if (tool === 'get_toilet') {
      const checked = this.arguments.get_toilet.passing(copyOf(args));
      return checked && this.getToilet(checked.id);
    }
    const checked = this.arguments.find_toilets_near.passing(copyOf(args));
    return checked && this.findNear(checked, meta);
  }

  /**
   * Has the reads mark the pieces of their answers from now on (the fast path copies constant fragments
   * whole, and gzips from the pieces); the REST routes set it per request themselves.
   */
  markPieces(): void {
    this.deps.reads.preparesGzip(true, false); // its copies are gzipped from their own pieces, without slices
  }

  /** The pieces of the answer read last, made while markPieces was on; valid until the next read. */
  answerPieces(): Pieces {
    return this.deps.reads.answerPieces();
  }

  /** Tells the metrics about a call's answer; once per call answered. */
  counted(tool: ToolName, answer: ToolAnswer): ToolAnswer {
    this.deps.onToolCall?.(tool, isRead(answer) ? 'ok' : 'error');
    return answer;
  }

  private findNear(args: FindParams, meta: Readonly<Record<string, unknown>> | undefined): ToolOutcome {
    try {
      // The hint costs a place lookup when it names only a city: ask for it only when it can be used.
      const hint = args.place === undefined && args.lat === undefined ? hostHintOrigin(meta, this.deps.places) : null;
      // a later read may run before the caller resumes: a promised answer gets bytes of its own
      return hint instanceof Promise ? hint.then((origin) => owned(this.nearestFrom(args, origin)), (error: unknown) => this.failure(error)) : this.nearestFrom(args, hint);
    } catch (error) {
      return this.failure(error);
    }
  }

  private nearestFrom(args: FindParams, hint: Origin | null): ToolOutcome {
    try {
      const body = this.deps.reads.findNear(args, this.deps.now(), hint);
      // a direct answer is read before anything else runs
      return body instanceof Promise ? body.then((later) => this.found(later, args), (error: unknown) => this.failure(error)) : this.found(body, args);
    } catch (error) {
      return this.failure(error);
    }
  }

  /** The answer, with the sentence saying why when it has no results from an origin (reads.ts starts it so). */
  private found(body: Buffer, args: FindParams): ReadAnswer {
    if (!startsWith(body, NO_RESULTS_FROM_ORIGIN)) return { body, note: null };
    const { origin } = JSON.parse(body.toString('latin1')) as { origin: { lat: number; lon: number; label: string } };
    return { body, note: this.deps.reads.noResultsReason(origin, args) };
  }

  private getToilet(id: string): ToolAnswer {
    try {
      const body = this.deps.reads.toilet(id, this.deps.now());
      if (body === null) {
        return toolError(
          `No toilet has the id ${JSON.stringify(id)}, or a moderator marked it gone. Use the id of a find_toilets_near result (e.g. n123456); call find_toilets_near again if the toilet was found long ago.`,
        );
      }
      return { body, note: null };
    } catch (error) {
      return this.failure(error);
    }
  }

  /** A lookup or data failure as a result the model can act on; internals go to the log only. */
  private failure(error: unknown): CallToolResult {
    if (error instanceof PlaceLookupUnavailable) {
      return toolError(
        `The place lookup cannot answer right now (${error.message}). Call again with lat and lon instead, or retry the place after ${error.retryAfterSeconds} seconds.`,
      );
    }
    this.deps.log.error('mcp tool failed', { error: (error as Error)?.stack ?? String(error) });
    return toolError('The toilet data cannot be read right now. Try again in a minute; if it keeps failing, tell the user the toilet finder is unavailable.');
  }
}

/** How a findToiletsNear answer without results from an origin begins (reads.ts STATUS_NO_RESULTS). */
const NO_RESULTS_FROM_ORIGIN = Buffer.from('{"status":"no_results","origin":{');

function startsWith(body: Buffer, prefix: Buffer): boolean {
  return body.length >= prefix.length && body.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
}

/**
 * A copy of `args` the check may complete with defaults. Not `{ ...args }`: V8 gives a spread copy a map
 * outside the transition tree, so each default added to it then made a new map, ~1.3 µs a member (7.6 µs
 * for find_toilets_near's six defaults against ~0.3 µs for this; docs/PERFORMANCE.md).
 */
function copyOf(args: Record<string, unknown>): Record<string, unknown> {
  return Object.assign({}, args);
}

/** A promised answer's bytes copied out of the reads' buffer, which the next read writes over. */
function owned(outcome: ToolOutcome): ToolOutcome {
  return outcome instanceof Promise || !isRead(outcome) ? outcome : { body: Buffer.from(outcome.body), note: outcome.note };
}

/**
 * A tool's answer as the SDK's result: the read's JSON as structured content, the same JSON as text,
 * then the data credit as a line of its own, then the no-results sentence if any.
 */
export function resultOf(answer: ToolAnswer): CallToolResult {
  if (!isRead(answer)) return answer;
  const json = answer.body.toString('latin1'); // answers are ASCII
  const structured = JSON.parse(json) as { attribution: { text: string } };
  const content: CallToolResult['content'] = [
    { type: 'text', text: json },
    { type: 'text', text: structured.attribution.text },
  ];
  if (answer.note !== null) content.push({ type: 'text', text: answer.note });
  return { content, structuredContent: structured };
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** `schema` with some property descriptions replaced (descriptions never change what validates). */
function withNotes(schema: JsonSchema, notes: Record<string, string>): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema>;
  const noted = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, notes[name] ? { ...property, description: notes[name] } : property]));
  return { ...schema, properties: noted };
}
