// The registry entries of OAuth (outside the spec's REST operations, so the OpenAPI document lists none):
// the authorization endpoint and the connected-apps page (refusals as our HTML pages), and the endpoints
// clients call (refusals as RFC 6749 errors). The token and revocation requests are forms the guard chain
// reads into the handler's input; the authorization request's own checks stay the handler's, in the order
// that keeps errors off unvalidated redirect URIs (authorize.ts). slice.ts names them.
import { RATE_LIMIT_POLICIES, type RouteSpec } from '../schemas/operations.js';
import { REGISTRATION_POLICY } from './rate-limits.js';

export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
  connections: '/oauth/connections',
} as const;

/** The protected MCP endpoint whose access tokens OAuth issues (src/account-mcp). */
export const ACCOUNT_MCP_PATH = '/mcp/account';

/** Five redirect URIs of 512 characters and the other fields fit well within it. */
const REGISTRATION_MAX_BYTES = 8 * 1024;
const FORM_MAX_BYTES = 8 * 1024;
/** The person's pages: a signed-in session is read when sent (else the page asks to sign in). */
const PAGE_GUARDS = { session: 'optional' } as const;
/** Their forms must come from our own page (Origin): the session cookie alone must not approve or revoke. */
const PAGE_FORM_GUARDS = { origin: 'site', session: 'optional' } as const;

export const OAUTH_ROUTES = [
  {
    openApi: false,
    method: 'get',
    path: OAUTH_PATHS.authorize,
    summary: 'The authorization endpoint: checks the request, then the consent page (or the passkey sign-in first).',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: PAGE_GUARDS,
    refusals: 'page',
  },
  {
    openApi: false,
    method: 'post',
    path: OAUTH_PATHS.authorize,
    summary: "The person's Approve or Deny, from the consent page with its single-use form token.",
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: PAGE_FORM_GUARDS,
    requestBody: { maxBytes: 4096, tooLargeStatus: 400 },
    refusals: 'page',
  },
  {
    openApi: false,
    method: 'get',
    path: OAUTH_PATHS.connections,
    summary: "The signed-in person's connected apps, each with a Revoke button.",
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: PAGE_GUARDS,
    refusals: 'page',
  },
  {
    openApi: false,
    method: 'post',
    path: OAUTH_PATHS.connections,
    summary: 'Revokes one connected app of the signed-in person.',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: PAGE_FORM_GUARDS,
    requestBody: { maxBytes: 1024, tooLargeStatus: 400 },
    refusals: 'page',
  },
  {
    openApi: false,
    method: 'post',
    path: OAUTH_PATHS.register,
    summary: 'Dynamic client registration (RFC 7591): its own budget, never the sign-in attempts’.',
    rateLimit: REGISTRATION_POLICY,
    requestBody: { maxBytes: REGISTRATION_MAX_BYTES, tooLargeStatus: 400 },
    refusals: 'oauth',
  },
  {
    openApi: false,
    method: 'post',
    path: OAUTH_PATHS.token,
    summary: 'The token endpoint: authorization_code with PKCE S256, and refresh_token.',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    requestBody: {
      maxBytes: FORM_MAX_BYTES,
      tooLargeStatus: 400,
      form: {
        fields: ['grant_type', 'client_id', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'resource'],
        unreadable: 'Send the token request as application/x-www-form-urlencoded, each field once (RFC 6749 section 4.1.3).',
      },
    },
    refusals: 'oauth',
  },
  {
    openApi: false,
    method: 'post',
    path: OAUTH_PATHS.revoke,
    summary: 'Token revocation (RFC 7009).',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    requestBody: {
      maxBytes: FORM_MAX_BYTES,
      tooLargeStatus: 400,
      form: { fields: ['token', 'client_id'], unreadable: 'Send the revocation as application/x-www-form-urlencoded, each field once (RFC 7009).' },
    },
    refusals: 'oauth',
  },
] as const satisfies readonly RouteSpec[];
