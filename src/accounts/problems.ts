// The problem types of accounts: sign-in, passkeys, recent authentication, deletion.
// Data only (src/http/problem-types.ts): the read threads load it with the catalogue, src/problems.ts.
import type { ProblemTypes, SlugsOf } from '../http/problem-types.js';

export const ACCOUNT_PROBLEMS = {
  'sign-in-required': {
    title: 'Sign-in required',
    status: 401,
    description: 'This operation needs a signed-in account, and the request carries no valid session (none, signed out, expired, or the account was deleted). Sign in with a passkey (startSignIn, then signIn) and send the request again.',
  },
  'reauthentication-required': {
    title: 'Re-authentication required',
    status: 401,
    description: 'This operation changes what protects the account (passkeys, sessions, deletion), so it needs a passkey sign-in from the last 5 minutes. Sign in again with a passkey (startSignIn, then signIn) and send the request again.',
  },
  'sign-in-failed': {
    title: 'Sign-in failed',
    status: 401,
    description: 'The passkey could not be verified: its challenge expired or was used already, or the passkey is not registered here or its answer is not valid. Start again with startSignIn.',
  },
  'passkey-refused': {
    title: 'Passkey not registered',
    status: 400,
    description: 'The new passkey could not be verified or registered: its challenge expired or was used already, it was made for another site, user verification was missing, or it is registered already. Start again with startPasskeyRegistration.',
  },
  'last-passkey': {
    title: 'Last passkey',
    status: 409,
    description: 'An account keeps at least one passkey, or nobody could sign in to it. Add another passkey first, or delete the account.',
  },
  'account-not-deletable': {
    title: 'Account cannot be deleted yet',
    status: 409,
    description: 'Something the account holds must be ended first, such as a running subscription; the detail names it and says how to confirm its end in the deletion request.',
  },
} as const satisfies ProblemTypes;

declare module '../http/problem-types.js' {
  interface ProblemCatalogue extends SlugsOf<typeof ACCOUNT_PROBLEMS> {}
}
