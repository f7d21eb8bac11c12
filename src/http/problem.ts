// RFC 9457 problem details (application/problem+json) with types `${baseUrl}/problems/<slug>`, and
// the short HTML page each type URL resolves to. The types are those of problem-types.ts and of each
// feature's problems.ts, collected in src/problems.ts.
import { compileHeaders, type HeaderList, type HttpReply } from './reply.js';
import type { HttpRequestInfo, ServerHooks } from './server.js';
import type { ProblemSlug, ProblemType } from './problem-types.js';
import type { RequestFault } from './transport.js';

export interface InvalidParam {
  readonly name: string;
  readonly reason: string;
}

export interface ProblemOptions {
  readonly invalidParams?: readonly InvalidParam[];
  /** Required for 429 and 503: sent as Retry-After and as retry_after_seconds. */
  readonly retryAfterSeconds?: number;
  /** More headers for the answer, e.g. the rate-limit headers. */
  readonly headers?: HeaderList;
}

const PROBLEM_JSON: HeaderList = ['Content-Type', 'application/problem+json'];
const HTML_HEADERS: HeaderList = compileHeaders(['Content-Type', 'text/html; charset=utf-8', 'Cache-Control', 'public, max-age=86400']);

interface PreparedKind {
  readonly status: number;
  /** The body up to the detail member: `{"type":"…","title":"…","status":400,"detail":`. */
  readonly bodyStart: string;
  readonly page: HttpReply;
}

/** The service's problems are those of its catalogue (src/problems.ts); a test may make others. */
export class Problems<Slug extends string = ProblemSlug> {
  private readonly kinds = new Map<string, PreparedKind>();

  readonly baseUrl: string;

  /** `baseUrl` e.g. "https://toilets.example" (a trailing slash is dropped). */
  constructor(baseUrl: string, catalog: Readonly<Record<Slug, ProblemType>>) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    for (const [slug, kind] of Object.entries<ProblemType>(catalog)) {
      if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug)) throw new RangeError(`problem slug must be lower-case words joined by '-', got ${slug}`);
      const type = this.typeUri(slug as Slug);
      this.kinds.set(slug, {
        status: kind.status,
        bodyStart: `{"type":${JSON.stringify(type)},"title":${JSON.stringify(kind.title)},"status":${kind.status},"detail":`,
        page: { status: 200, headers: HTML_HEADERS, body: renderPage(type, kind) },
      });
    }
  }

  typeUri(slug: Slug): string {
    return `${this.baseUrl}/problems/${slug}`;
  }

  /** The problem answer of kind `slug`; `detail` tells the client what to change. */
  reply(slug: Slug, detail: string, options: ProblemOptions = {}): HttpReply {
    const kind = this.kinds.get(slug)!;
    const { invalidParams, retryAfterSeconds, headers } = options;
    if ((kind.status === 429 || kind.status === 503) && retryAfterSeconds === undefined) {
      throw new TypeError(`problem ${slug} (${kind.status}) needs retryAfterSeconds`);
    }
    let body = kind.bodyStart + JSON.stringify(detail);
    if (invalidParams !== undefined) body += `,"invalid_params":${JSON.stringify(invalidParams.map(({ name, reason }) => ({ name, reason })))}`;
    let replyHeaders = PROBLEM_JSON;
    if (retryAfterSeconds !== undefined) {
      const seconds = Math.max(0, Math.ceil(retryAfterSeconds));
      body += `,"retry_after_seconds":${seconds}`;
      replyHeaders = [...replyHeaders, 'Retry-After', String(seconds)];
    }
    if (headers !== undefined) replyHeaders = [...replyHeaders, ...headers];
    return { status: kind.status, headers: replyHeaders, body: body + '}' };
  }

  /** The HTTP status of the type `slug`. */
  status(slug: Slug): number {
    return this.kinds.get(slug)!.status;
  }

  /** The HTML page of the type `slug`, or null when the catalog has no such slug. */
  page(slug: string): HttpReply | null {
    return this.kinds.get(slug)?.page ?? null;
  }
}

function renderPage(type: string, kind: ProblemType): string {
  const title = escapeHtml(kind.title);
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<h1>${title}</h1>
<p>HTTP status ${kind.status}. ${escapeHtml(kind.description)}</p>
<p>Answers of this kind are <code>application/problem+json</code> documents (RFC 9457) whose <code>type</code> is <code>${escapeHtml(type)}</code>; their <code>detail</code> member describes the particular occurrence.</p>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const REFUSED: Record<RequestFault['status'], ProblemSlug> = { 400: 'malformed-request', 408: 'request-timeout', 431: 'header-fields-too-large', 501: 'method-not-implemented' };

/** The problem+json answer to a request refused before its handler: its framing (framing.ts), or the transport's finding. */
export function refusalReply(problems: Problems, fault: RequestFault): HttpReply {
  const slug = fault.framing === true ? (fault.status === 501 ? 'transfer-coding-not-implemented' : 'bad-framing') : REFUSED[fault.status];
  return problems.reply(slug, `${fault.reason}.`);
}

/**
 * Server hooks answering 404, 405, 413 and 500 with problem+json. `logError` sees every unexpected
 * error; the 500 body says nothing about it.
 */
export function problemHooks(
  problems: Problems,
  logError: (error: unknown, request: HttpRequestInfo) => void,
): ServerHooks {
  return {
    notFound: (request) => problems.reply('not-found', `Nothing exists at ${request.path}; check the path against the API description.`),
    methodNotAllowed: (request, allow) =>
      problems.reply('method-not-allowed', `${request.path} does not support ${request.method}; use ${allow.join(', ')}.`),
    payloadTooLarge: (_request, maxBytes) => problems.reply('payload-too-large', `Send a request body of at most ${maxBytes} bytes.`),
    badFraming: (_request, fault) => refusalReply(problems, { ...fault, framing: true }),
    refused: (fault) => refusalReply(problems, fault),
    serverError: (error, request) => {
      logError(error, request);
      return problems.reply('server-error', 'The server could not answer this request; try again later.');
    },
  };
}
