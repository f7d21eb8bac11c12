// Deprecation (RFC 9745) and Sunset (RFC 8594) headers for operations the config marks deprecated.
import type { Config } from '../config.js';

/** Headers per deprecated operationId, rendered once. */
export function deprecationHeaders(config: Config): Map<string, string[]> {
  const byOperation = new Map<string, string[]>();
  for (const { operationId, deprecation, sunset } of config.deprecated) {
    byOperation.set(operationId, [
      'Deprecation', `@${Math.floor(deprecation.getTime() / 1000)}`,
      'Sunset', sunset.toUTCString(),
      'Link', `<${config.baseUrl}/api/v1/openapi.json>; rel="deprecation"; type="application/json"`,
    ]);
  }
  return byOperation;
}
