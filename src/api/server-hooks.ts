// The answers the HTTP server gives itself (no route, wrong method, body too large, a handler failed), as
// problem+json: the same on every server thread. A handler that failed because the storage refused a write
// (full disk, locked database) is 503 with Retry-After, which the spec tells clients to wait out and resend.
import { refusalReply, type Problems } from '../http/problem.js';
import type { ServerHooks } from '../http/server.js';
import type { Logger } from '../log.js';
import { storageTrouble } from '../storage/errors.js';

/** How long a client waits before sending again a request the storage refused (a full disk needs an operator). */
export const STORAGE_RETRY_SECONDS = 60;

export function serviceHooks(problems: Problems, log: Logger, onStorageTrouble: () => void = () => {}): ServerHooks {
  return {
    notFound: (request) => problems.reply('not-found', `Nothing is served at ${request.path}. The API lives under /api/v1; its description is at /api/v1/openapi.json.`),
    methodNotAllowed: (request, allow) => problems.reply('method-not-allowed', `${request.path} does not answer ${request.method}; use ${allow.join(' or ')}.`),
    payloadTooLarge: (_request, maxBytes) => problems.reply('payload-too-large', `The body is larger than ${maxBytes} bytes; send a smaller one.`),
    badFraming: (_request, fault) => refusalReply(problems, { ...fault, framing: true }),
    refused: (fault) => refusalReply(problems, fault),
    serverError: (error, request) => {
      const trouble = storageTrouble(error);
      if (trouble !== null) {
        onStorageTrouble();
        log.error(`storage unavailable: ${trouble}`, { method: request.method, path: request.path, error: String(error) });
        return problems.reply('unavailable', `The service cannot store anything right now: ${trouble}. Send the request again in ${STORAGE_RETRY_SECONDS} seconds.`, {
          retryAfterSeconds: STORAGE_RETRY_SECONDS,
        });
      }
      log.error('request failed', { method: request.method, path: request.path, error: (error as Error)?.stack ?? String(error) });
      return problems.reply('server-error', 'The server failed to answer this request. Send it again later; if it keeps failing, tell the operator of this service.');
    },
  };
}
