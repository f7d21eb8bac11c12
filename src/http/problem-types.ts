// The problem types of the HTTP layer itself (RFC 9457): malformed requests, unknown paths, limits, faults.
// Every other problem type is declared by the feature that answers with it, in a data-only `problems.ts`
// of its folder that adds its slugs to ProblemCatalogue (the type) and is listed in src/problems.ts (the
// catalogue the server serves). A type's URI is `${BASE_URL}/problems/<slug>` (a short HTML page, see
// problem.ts). Keyed by slug, so a reply names its type as a checked literal (`problems.reply('not-found',
// …)`), not a free string. Data only, so the read threads take the catalogue without any feature code.

export interface ProblemType {
  /** Fixed title, the same for every occurrence of the type. */
  readonly title: string;
  readonly status: number;
  /** What the problem means and what a client should do, shown on the type's HTML page. */
  readonly description: string;
}

/** The problem types of a feature: slug to type. */
export type ProblemTypes = Readonly<Record<string, ProblemType>>;

export const HTTP_PROBLEMS = {
  'invalid-parameters': {
    title: 'Invalid parameters',
    status: 400,
    description: 'One or more parameters of the request are invalid. The invalid_params member lists each one with the reason; correct them and send the request again.',
  },
  'not-found': {
    title: 'Not found',
    status: 404,
    description: 'Nothing exists at this address, or the resource is gone. Check the path and the identifier.',
  },
  'method-not-allowed': {
    title: 'Method not allowed',
    status: 405,
    description: 'The resource exists but does not support this HTTP method. The Allow header lists the methods it supports.',
  },
  'bad-framing': {
    title: 'Ambiguous request framing',
    status: 400,
    description: 'The request says in two ways, or in a way that does not agree, where its body ends: several different Content-Length headers, a Content-Length that is not a number, Content-Length together with Transfer-Encoding, or a Transfer-Encoding whose last coding is not chunked. A proxy and this server could read it differently, so it is refused and the connection closed. Send one Content-Length, or Transfer-Encoding: chunked alone.',
  },
  'transfer-coding-not-implemented': {
    title: 'Transfer coding not implemented',
    status: 501,
    description: 'The request body uses a transfer coding before chunked that this server does not read; only chunked is. The connection is closed. Send the body with a Content-Length, or with Transfer-Encoding: chunked.',
  },
  'malformed-request': {
    title: 'Malformed request',
    status: 400,
    description: 'The request is not valid HTTP/1.1 (RFC 9112): for example a space or a control character in the request line, a line ending in a bare line feed, a header line without a colon, or an HTTP/1.1 request without a Host header. The detail says what was found. The connection is closed. Send a well-formed request.',
  },
  'request-timeout': {
    title: 'Request timeout',
    status: 408,
    description: 'The request did not arrive in time: its head must arrive within the time the detail names, and the whole request within a longer one. The connection is closed. Send the request again, without pauses.',
  },
  'header-fields-too-large': {
    title: 'Request header fields too large',
    status: 431,
    description: 'The request has more header lines, or a larger head, than this server reads; the detail says which bound. The connection is closed. Send fewer or shorter header lines (the API reads only a few).',
  },
  'method-not-implemented': {
    title: 'Method not implemented',
    status: 501,
    description: 'The request method is not one this server knows. The connection is closed. Use one of GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS.',
  },
  'payload-too-large': {
    title: 'Payload too large',
    status: 413,
    description: 'The request body is larger than this operation accepts. Send a smaller body.',
  },
  'rate-limited': {
    title: 'Too many requests',
    status: 429,
    description: 'The client sent more requests than its rate limit allows. Wait the number of seconds in the Retry-After header (also in retry_after_seconds), then send the request again.',
  },
  'server-error': {
    title: 'Internal server error',
    status: 500,
    description: 'The server failed to answer because of a fault on its side. The request may succeed if sent again later.',
  },
  unavailable: {
    title: 'Service unavailable',
    status: 503,
    description: 'The service cannot answer right now. Wait the number of seconds in the Retry-After header (also in retry_after_seconds), then send the request again.',
  },
} as const satisfies ProblemTypes;

/**
 * Every slug the service answers with. A feature's problems.ts adds its own by declaration merging:
 * `declare module '../http/problem-types.js' { interface ProblemCatalogue extends SlugsOf<typeof X> {} }`.
 */
export interface ProblemCatalogue extends SlugsOf<typeof HTTP_PROBLEMS> {}

/** The slugs of a feature's problem types, as members of ProblemCatalogue. */
export type SlugsOf<Types extends ProblemTypes> = Record<keyof Types & string, ProblemType>;

export type ProblemSlug = keyof ProblemCatalogue;

/** The slugs of several lists of problem types. */
type SlugsIn<Lists extends readonly ProblemTypes[]> = Lists[number] extends infer List ? (List extends unknown ? keyof List & string : never) : never;

/**
 * One catalogue of the features' problem types; a slug declared twice is a mistake, not an override. Typed
 * with the slugs of the lists given, so a catalogue declared as Record<ProblemSlug, ProblemType> that
 * misses a feature's list does not compile.
 */
export function collectProblems<Lists extends readonly ProblemTypes[]>(...lists: Lists): Readonly<Record<SlugsIn<Lists>, ProblemType>> {
  const catalogue: Record<string, ProblemType> = {};
  for (const list of lists) {
    for (const [slug, type] of Object.entries(list)) {
      if (slug in catalogue) throw new Error(`problem type ${slug} is declared twice: each slug belongs to one feature`);
      catalogue[slug] = type;
    }
  }
  return catalogue as Record<SlugsIn<Lists>, ProblemType>;
}
