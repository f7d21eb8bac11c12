// Bodies of the account operations (issue 31: passkey sign-up, sign-in, sessions), which the spec leaves to
// us. The WebAuthn parts are the standard JSON forms that @simplewebauthn/browser produces and
// @simplewebauthn/server verifies (W3C WebAuthn Level 3, "JSON serialization"); their inner members are
// checked by the library, so the schemas bound sizes and shapes without repeating the standard.
import { closedObject, ref, schemaId, type JsonSchema } from '../schemas/refs.js';
import type { SchemasOf } from '../schemas/resources.js';

const BASE64URL = { type: 'string', pattern: '^[A-Za-z0-9_-]*$' } as const;
const b64url = (maxLength: number, description: string) => ({ ...BASE64URL, minLength: 1, maxLength, description }) as const;
const DATE_TIME = { type: 'string', format: 'date-time' } as const;
const DISPLAY_NAME = {
  type: 'string',
  minLength: 1,
  maxLength: 60,
  pattern: '^[^\\u0000-\\u001f\\u007f]*\\S[^\\u0000-\\u001f\\u007f]*$',
  title: '1 to 60 characters, not only spaces, no control characters',
} as const;
const EMAIL = { type: 'string', format: 'email', maxLength: 254, description: 'Optional contact address; never shown to others.' } as const;
const PASSKEY_NAME = { ...DISPLAY_NAME, description: 'What the account page calls this passkey ("Phone", "Laptop"); default: "Passkey <n>".' } as const;
const RECOVERY_TOKEN = { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$', title: 'the token of an operator recovery link (43 characters)' } as const;
const CHALLENGE_TOKEN = { type: 'string', maxLength: 2048, description: 'A solved human-check challenge from GET /api/v1/challenge, used once.' } as const;
const ACCOUNT_ID = { type: 'string', pattern: '^acc_[0-9a-f]{24}$' } as const;

/** A PublicKeyCredential in its WebAuthn JSON form: what registration and assertion share, and its `response`. */
function credential<const N extends string, const R extends { properties: Record<string, JsonSchema>; required: readonly string[] }>(name: N, description: string, response: R) {
  return closedObject(
    name,
    description,
    {
      id: b64url(1400, 'The credential id.'),
      rawId: b64url(1400, 'The credential id.'),
      type: { const: 'public-key' },
      response: {
        type: 'object',
        properties: { clientDataJSON: b64url(4096, 'Client data JSON.'), ...response.properties },
        required: ['clientDataJSON', ...response.required],
      },
      clientExtensionResults: { type: 'object' },
      authenticatorAttachment: { type: 'string', maxLength: 32 },
    },
    ['authenticatorAttachment'],
  );
}

/** navigator.credentials.create() in its JSON form (RegistrationResponseJSON). */
const RegistrationCredential = credential('RegistrationCredential', 'The new passkey as @simplewebauthn/browser startRegistration() returns it.', {
  properties: {
    attestationObject: b64url(16384, 'Attestation object (CBOR).'),
    transports: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 32 } },
  },
  required: ['attestationObject'],
});

/** navigator.credentials.get() in its JSON form (AuthenticationResponseJSON). */
const AuthenticationCredential = credential('AuthenticationCredential', 'The passkey assertion as @simplewebauthn/browser startAuthentication() returns it.', {
  properties: {
    authenticatorData: b64url(4096, 'Authenticator data.'),
    signature: b64url(1024, 'Signature over the authenticator data and the client data hash.'),
    userHandle: b64url(128, 'The account’s user handle (discoverable credentials).'),
  },
  required: ['authenticatorData', 'signature'],
});

const StartPasskeyRegistrationRequest = closedObject(
  'StartPasskeyRegistrationRequest',
  'Signed out: `display_name` of the account to create (the authenticator shows it), or `recovery_token` of an operator recovery link. Signed in: nothing (an extra passkey for the account).',
  { display_name: DISPLAY_NAME, recovery_token: RECOVERY_TOKEN },
  ['display_name', 'recovery_token'],
);

const CreateAccountRequest = closedObject(
  'CreateAccountRequest',
  'Creates an account with its first passkey, answering the options of startPasskeyRegistration.',
  { display_name: DISPLAY_NAME, email: EMAIL, challenge_token: CHALLENGE_TOKEN, credential: ref('RegistrationCredential') },
  ['email'],
);

const AddPasskeyRequest = closedObject(
  'AddPasskeyRequest',
  'Registers another passkey for the signed-in account, answering the options of startPasskeyRegistration.',
  { name: PASSKEY_NAME, credential: ref('RegistrationCredential') },
  ['name'],
);

const RecoverAccountRequest = closedObject(
  'RecoverAccountRequest',
  "Registers a new passkey for the account an operator's recovery link names, then signs in with it.",
  { recovery_token: RECOVERY_TOKEN, name: PASSKEY_NAME, credential: ref('RegistrationCredential') },
  ['name'],
);

const SignInRequest = closedObject('SignInRequest', 'Signs in with a passkey, answering the options of startSignIn.', { credential: ref('AuthenticationCredential') });

const DeleteAccountRequest = closedObject(
  'DeleteAccountRequest',
  'Deletes the signed-in account. `confirm_cancellation`: true ends what would otherwise keep the account (a running subscription) with it.',
  { confirm_cancellation: { type: 'boolean' } },
  ['confirm_cancellation'],
);

const PasskeyCreationOptions: JsonSchema = {
  $id: schemaId('PasskeyCreationOptions'),
  description: 'PublicKeyCredentialCreationOptionsJSON: give it to @simplewebauthn/browser startRegistration({optionsJSON}). Valid for 5 minutes, once.',
  type: 'object',
  properties: {
    challenge: BASE64URL,
    rp: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'name'] },
    user: { type: 'object', properties: { id: BASE64URL, name: { type: 'string' }, displayName: { type: 'string' } }, required: ['id', 'name', 'displayName'] },
    pubKeyCredParams: { type: 'array', items: { type: 'object' } },
    timeout: { type: 'integer' },
    excludeCredentials: { type: 'array', items: { type: 'object' } },
    authenticatorSelection: { type: 'object' },
    attestation: { type: 'string' },
  },
  required: ['challenge', 'rp', 'user', 'pubKeyCredParams'],
};

const PasskeyRequestOptions: JsonSchema = {
  $id: schemaId('PasskeyRequestOptions'),
  description: 'PublicKeyCredentialRequestOptionsJSON: give it to @simplewebauthn/browser startAuthentication({optionsJSON, useBrowserAutofill}). Valid for 5 minutes, once.',
  type: 'object',
  properties: { challenge: BASE64URL, rpId: { type: 'string' }, timeout: { type: 'integer' }, userVerification: { const: 'required' }, allowCredentials: { type: 'array', maxItems: 0 } },
  required: ['challenge', 'rpId', 'userVerification'],
};

const Account = closedObject('Account', 'The signed-in account.', {
  id: ACCOUNT_ID,
  display_name: DISPLAY_NAME,
  email: { anyOf: [EMAIL, { type: 'null' }] },
  moderator: { type: 'boolean', description: 'Whether the account may act in the moderator queue.' },
  created_at: DATE_TIME,
});

const Passkey = closedObject('Passkey', 'One passkey of the account.', {
  id: { ...BASE64URL, description: 'The credential id.' },
  name: { type: 'string' },
  created_at: DATE_TIME,
  last_used_at: { anyOf: [DATE_TIME, { type: 'null' }], description: 'The last sign-in with it; null: never.' },
});

const PasskeyList = closedObject('PasskeyList', 'The passkeys of the account, oldest first.', { passkeys: { type: 'array', items: ref('Passkey') } });

const OTHER_SESSIONS = {
  type: 'integer',
  minimum: 0,
  description: 'Sessions of the account other than this one: after a passkey change, offer to end them (signOutEverywhere).',
} as const;

const PasskeyAdded = closedObject('PasskeyAdded', 'The passkey is registered.', { passkey: ref('Passkey'), other_sessions: OTHER_SESSIONS });
const PasskeyRemoved = closedObject('PasskeyRemoved', 'The passkey is removed; it can no longer sign in.', { removed: BASE64URL, other_sessions: OTHER_SESSIONS });
const SignedOut = closedObject('SignedOut', 'The session is ended and its cookie removed.', { signed_out: { const: true } });
const SessionsEnded = closedObject('SessionsEnded', 'Every other session of the account is ended, and with connections=all every connected app.', {
  ended: { type: 'integer', minimum: 0, description: 'How many sessions ended.' },
  connections_ended: { type: 'integer', minimum: 0, description: 'How many connected apps (OAuth grants) ended: 0 without connections=all.' },
});
const SESSION_ID = { type: 'string', pattern: '^ses_[A-Za-z0-9_-]{22}$', description: 'The session’s id: names it, cannot sign in.' } as const;
const Session = closedObject('Session', 'One signed-in session of the account.', {
  id: SESSION_ID,
  created_at: { ...DATE_TIME, description: 'When it signed in.' },
  last_used_at: { ...DATE_TIME, description: 'Its last request, to the minute.' },
  device: { anyOf: [{ type: 'string', maxLength: 40 }, { type: 'null' }], description: 'Browser and system, e.g. "Firefox on Android"; null when unknown.' },
  current: { type: 'boolean', description: 'Whether it is the session of this request.' },
});
const SessionList = closedObject('SessionList', 'The signed-in sessions of the account, the last used first.', { sessions: { type: 'array', items: ref('Session') } });
const SessionEnded = closedObject('SessionEnded', 'The session is ended; when it was this one, the answer removes its cookie.', { ended: SESSION_ID, current: { type: 'boolean' } });
const AccountDeleted = closedObject('AccountDeleted', 'The account, its passkeys and sessions are deleted; its ratings and votes are kept without it.', { deleted: { const: true } });

export const ACCOUNT_SCHEMAS = {
  RegistrationCredential,
  AuthenticationCredential,
  StartPasskeyRegistrationRequest,
  CreateAccountRequest,
  AddPasskeyRequest,
  RecoverAccountRequest,
  SignInRequest,
  DeleteAccountRequest,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
  Account,
  Passkey,
  PasskeyList,
  PasskeyAdded,
  PasskeyRemoved,
  SignedOut,
  SessionsEnded,
  Session,
  SessionList,
  SessionEnded,
  AccountDeleted,
} as const;

export { SESSION_ID };

declare module '../schemas/resources.js' {
  interface SchemaCatalogue extends SchemasOf<typeof ACCOUNT_SCHEMAS> {}
}
