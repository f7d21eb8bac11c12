// The hot MCP requests answered without the SDK: a fully valid `tools/call` of find_toilets_near or
// get_toilet in either revision this endpoint serves (2026-07-28, and 2025-11-25 without a session), and
// a 2025-era `ping`. The tool runs on this thread's reads with the arguments checked by the schema the SDK
// lists (ToolSet.call), and the answer is the SDK's, byte for byte, written as bytes from the read's own
// answer (result-bytes.ts) in one piece while the uWS callback runs; a client that takes gzip gets it
// made from the answer's pieces (src/rules/gzip-bytes.ts), in either framing. The SDK would check the
// output against the tool's schema; here the answer is the reads' by construction, and
// test/mcp/answer-schema.test.ts checks generated answers against that schema. Anything else, however slightly different from
// the plain form (other _meta keys, a session, headers the SDK would refuse, arguments the schema refuses,
// a batch), is left to the SDK untouched: this path never writes an error of the SDK's.
// test/mcp/fast-path.test.ts sends generated requests to both and compares the answers.
import { ATTRIBUTION_TEXT } from '../api/attribution.js';
import { acceptsGzip, MIN_COMPRESS_BYTES } from '../http/encoding.js';
import type { HeaderList, HttpReply } from '../http/reply.js';
import type { HttpRequestInfo } from '../http/server.js';
import { GzipBytes } from '../rules/gzip-bytes.js';
import type { Pieces } from '../rules/json-bytes.js';
import { USER_LOCATION_META_KEY } from './host-hint.js';
import { ResultBytes } from './result-bytes.js';
import { MODERN_PROTOCOL_VERSION, SERVER_INFO } from './server-card.js';
import { isRead, TOOL_NAMES, type ReadAnswer, type ToolAnswer, type ToolName, type ToolSet } from './tools.js';

/** The 2025-era revision the fast path serves (older ones, and requests naming none, go to the SDK). */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

type Era = 'modern' | 'legacy';
type Json = Record<string, unknown>;

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const CALL_KEYS = new Set(['name', 'arguments', '_meta']);
const MODERN_META_KEYS = new Set([PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, USER_LOCATION_META_KEY]);
const LEGACY_META_KEYS = new Set([USER_LOCATION_META_KEY]);
/** Capabilities a client may declare (each as `{}`) without the SDK looking closer. */
const PLAIN_CAPABILITIES = new Set(['roots', 'sampling', 'elicitation', 'experimental']);
const CLIENT_INFO_KEYS = new Set(['name', 'version', 'title']);
/** Headers that make the SDK look at the request in ways this path does not follow (sessions, resumption). */
const SDK_HEADERS = ['mcp-session-id', 'last-event-id'];

/** What the SDK answers each era with (lower-case, as web Headers give them), before the route's own headers. */
const JSON_HEAD: HeaderList = ['content-type', 'application/json'];
const EVENT_STREAM_HEAD: HeaderList = ['cache-control', 'no-cache, no-transform', 'content-type', 'text/event-stream', 'x-accel-buffering', 'no'];
/** What the SDK adds to every 2026-07-28 result. */
const MODERN_RESULT = { resultType: 'complete', _meta: { [SERVER_INFO_KEY]: SERVER_INFO } };

// The answer's constant parts as the SDK writes them (JSON.stringify, UTF-8), around the read's two copies.
const bytes = (text: string) => Buffer.from(text);
const OPENING = { modern: bytes('{"result":'), legacy: bytes('event: message\ndata: {"result":') };
const CLOSING = { modern: bytes('}'), legacy: bytes('}\n\n') };
const ID_MEMBER = bytes(',"jsonrpc":"2.0","id":');
const CONTENT_OPEN = bytes('{"content":[{"type":"text","text":"');
const CREDIT_ITEM = bytes(`"},{"type":"text","text":${JSON.stringify(ATTRIBUTION_TEXT)}}`);
const NOTE_OPEN = bytes(',{"type":"text","text":');
const BRACE_CLOSE = bytes('}');
const STRUCTURED_OPEN = bytes('],"structuredContent":');
const RESULT_CLOSE = { modern: bytes(JSON.stringify(MODERN_RESULT).replace(/^\{/, ',')), legacy: bytes('}') };
const NO_PIECES: Pieces = { starts: new Int32Array(0), count: 0, sources: [] };


export class FastPath {
  /** This thread's answer and its gzip form, written over by each answer. */
  private readonly out = new ResultBytes();
  private readonly gzip = new GzipBytes();

  constructor(private readonly tools: ToolSet) {}

  /**
   * The answer to `message` (the request's body, parsed) when it is one of the hot requests in its plain
   * form, with `headers` (the guard chain's) after the SDK's; null: the SDK answers it. A direct answer's
   * bytes are this thread's buffer, valid until its next answer: write it before the callback returns.
   * A tool waiting for a place lookup answers later, with bytes of its own.
   */
  answer(request: HttpRequestInfo, message: unknown, headers: HeaderList): HttpReply | Promise<HttpReply | null> | null {
    const era = eraOf(request);
    if (era === null || !isObject(message) || !hasOnly(message, MESSAGE_KEYS) || message.jsonrpc !== '2.0' || !isRequestId(message.id)) return null;
    const { id, method, params } = message;
    const gzip = acceptsGzip(request.acceptEncoding);
    if (method === 'ping') return era === 'legacy' && (params === undefined || isEmpty(params)) ? this.reply(era, id, bytes('{}'), headers, gzip, false) : null;
    if (method !== 'tools/call' || !isObject(params) || !hasOnly(params, CALL_KEYS)) return null;
    const { name, arguments: args, _meta: meta } = params;
    if (!isToolName(name) || !isObject(args) || !(era === 'modern' ? isModernCall(request, name, meta) : isLegacyMeta(meta))) return null;
    this.tools.markPieces();
    const outcome = this.tools.call(name, args, meta as Json | undefined);
    if (outcome === null) return null;
    if (outcome instanceof Promise) return outcome.then((later) => this.toolReply(era, id, name, later, headers, gzip, true));
    return this.toolReply(era, id, name, outcome, headers, gzip, false);
  }

  /** The call's answer; `later`: its bytes copied out of the thread's buffer (and its read's pieces unknown). */
  private toolReply(era: Era, id: string | number, tool: ToolName, answer: ToolAnswer, headers: HeaderList, gzip: boolean, later: boolean): HttpReply {
    this.tools.counted(tool, answer);
    if (!isRead(answer)) return this.reply(era, id, bytes(JSON.stringify(era === 'modern' ? { ...answer, ...MODERN_RESULT } : answer)), headers, gzip, later);
    return this.reply(era, id, answer, headers, gzip, later, later ? NO_PIECES : this.tools.answerPieces());
  }

  /** A JSON-RPC result as the SDK writes it: modern as one JSON body, 2025-era as one event of a stream. */
  private reply(era: Era, id: string | number, result: ReadAnswer | Buffer, headers: HeaderList, gzip: boolean, later: boolean, pieces = NO_PIECES): HttpReply {
    const out = this.out;
    out.reset(gzip);
    out.bytes(OPENING[era]);
    if (Buffer.isBuffer(result)) out.bytes(result, false);
    else writeResult(out, era, result, pieces);
    out.bytes(ID_MEMBER);
    out.bytes(bytes(JSON.stringify(id)), false);
    out.bytes(CLOSING[era]);
    const body = out.view();
    let coded: Buffer | undefined;
    if (gzip && body.length >= MIN_COMPRESS_BYTES) {
      coded = this.gzip.encode(body, out.pieces());
    }
    return {
      status: 200,
      headers: [...(era === 'modern' ? JSON_HEAD : EVENT_STREAM_HEAD), ...headers],
      body: later ? Buffer.from(body) : body,
      ...(coded === undefined ? {} : { encodings: { gzip: later ? Buffer.from(coded) : coded } }),
    };
  }
}

/** A read's result: its answer as text, the data credit, the no-results sentence if any, its answer as structured content. */
function writeResult(out: ResultBytes, era: Era, read: ReadAnswer, pieces: Pieces): void {
  out.bytes(CONTENT_OPEN);
  out.stringOf(read.body, pieces);
  out.bytes(CREDIT_ITEM);
  if (read.note !== null) {
    out.bytes(NOTE_OPEN);
    out.bytes(bytes(JSON.stringify(read.note)), false);
    out.bytes(BRACE_CLOSE);
  }
  out.bytes(STRUCTURED_OPEN);
  out.parsedOf(read.body, pieces);
  out.bytes(RESULT_CLOSE[era]);
}

/** The revision a request is served under, when it is one this path serves in the plain way. */
function eraOf(request: HttpRequestInfo): Era | null {
  const headers = request.headers;
  if (request.method !== 'POST' || headers['content-type'] !== 'application/json' || SDK_HEADERS.some((name) => headers[name] !== undefined)) return null;
  const version = headers['mcp-protocol-version'];
  if (version === MODERN_PROTOCOL_VERSION) return 'modern';
  if (version !== LEGACY_PROTOCOL_VERSION || headers['mcp-method'] !== undefined || headers['mcp-name'] !== undefined) return null;
  // the 2025-era transport answers 406 unless both are named (its own test, copied)
  const accept = headers.accept;
  return accept !== undefined && accept.includes('application/json') && accept.includes('text/event-stream') ? 'legacy' : null;
}

/** The 2026-07-28 headers naming the call, and the envelope with nothing the SDK would look at closer. */
function isModernCall(request: HttpRequestInfo, name: string, meta: unknown): boolean {
  const headers = request.headers;
  if (headers['mcp-method'] !== 'tools/call' || headers['mcp-name'] !== name) return false;
  if (!isObject(meta) || !hasOnly(meta, MODERN_META_KEYS) || meta[PROTOCOL_VERSION_KEY] !== MODERN_PROTOCOL_VERSION) return false;
  const capabilities = meta[CLIENT_CAPABILITIES_KEY];
  if (!isObject(capabilities) || !Object.keys(capabilities).every((key) => PLAIN_CAPABILITIES.has(key) && isEmpty(capabilities[key]))) return false;
  const info = meta[CLIENT_INFO_KEY];
  return info === undefined || (isObject(info) && hasOnly(info, CLIENT_INFO_KEYS) && typeof info.name === 'string' && typeof info.version === 'string' && ['string', 'undefined'].includes(typeof info.title));
}

function isLegacyMeta(meta: unknown): boolean {
  return meta === undefined || (isObject(meta) && hasOnly(meta, LEGACY_META_KEYS));
}

function isToolName(name: unknown): name is ToolName {
  return TOOL_NAMES.includes(name as ToolName);
}

function isRequestId(id: unknown): id is string | number {
  return typeof id === 'string' || Number.isSafeInteger(id);
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isEmpty(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 0;
}

function hasOnly(value: Json, keys: ReadonlySet<string>): boolean {
  for (const key in value) if (!keys.has(key)) return false;
  return true;
}
