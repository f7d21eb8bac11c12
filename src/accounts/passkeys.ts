// The WebAuthn ceremonies, with @simplewebauthn/server (docs/DEPENDENCIES.md): creation options and the
// check of a new passkey, request options and the check of a sign-in. What this module adds to the library:
// - Challenges live server-side (their SHA-256 only), are bound to what they were asked for (a new account,
//   a passkey for one account, a recovery, a sign-in), expire after 5 minutes and are used once: the first
//   answer that names one deletes it, whatever the outcome.
// - Origin and RP ID come from BASE_URL; user verification is required in every ceremony.
// - An unknown credential goes through the same verification as a known one, against a key nobody holds,
//   and fails with the same answer as a wrong signature: the answer tells nothing about which ids exist.
// - The signature counter is checked here, after the signature verified, so that a regression (a cloned
//   authenticator) is refused and logged as what it is.
// - The library is loaded at the first ceremony, not with the server: its modules cost about 0.25 s of CPU
//   at every start (and in every process that loads the app), and most starts see no sign-in before long.
import { generateKeyPairSync } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Logger } from '../log.js';
import { secretHash, type AccountRow, type AccountsStore, type ChallengePurpose, type PasskeyRow } from './store.js';

/** How long a challenge may be answered (and the browser's prompt is told to wait). */
export const CHALLENGE_LIFETIME_MS = 5 * 60_000;

export type Outcome<T> = { ok: true; value: T } | { ok: false; detail: string };

/** A verified new passkey, ready to store. */
export interface NewPasskey {
  credentialId: string;
  publicKey: Buffer;
  counter: number;
  transports: string[];
  /** The account it was asked for (add-passkey, recover), or null for a new account. */
  accountId: string | null;
  /** The WebAuthn user.id the authenticator keeps with it. */
  userHandle: Buffer;
}

/** Whom creation options are for. */
export interface Registrant {
  purpose: Exclude<ChallengePurpose, 'sign-in'>;
  accountId: string | null;
  userHandle: Buffer;
  /** Shown by the authenticator to tell its passkeys apart. */
  name: string;
  /** Passkeys the account has: the authenticator is asked not to make a second one beside them. */
  existing: readonly PasskeyRow[];
}

/**
 * The signature algorithms a passkey may use, as COSE identifiers: EdDSA, ES256, RS256. Named here rather
 * than left to the library, whose default adds ML-DSA-44 where the runtime has it (Node 24's experimental
 * Web Crypto): a passkey made so would stop working on a Node without it, and its 2,420-byte signatures
 * exceed what the sign-in body accepts (src/schemas/account-resources.ts).
 */
const PASSKEY_ALGORITHMS = [-8, -7, -257];

type Library = typeof import('@simplewebauthn/server') & typeof import('@simplewebauthn/server/helpers');
let library: Promise<Library> | undefined;

/** @simplewebauthn/server and its helpers, loaded once, at the first call. */
function webauthn(): Promise<Library> {
  library ??= Promise.all([import('@simplewebauthn/server'), import('@simplewebauthn/server/helpers')]).then(([server, helpers]) => ({ ...server, ...helpers }));
  return library;
}

const SIGN_IN_FAILED = 'The passkey could not be verified: it is not registered here, or its answer is not valid. Choose another passkey, or start again with startSignIn.';
const CHALLENGE_GONE = 'The challenge in this answer is unknown, expired (after 5 minutes) or was used already: ask for new options and try again.';

export class PasskeyCeremonies {
  private readonly rpID: string;
  private readonly origin: string;
  private readonly rpName: string;
  /** The key an unknown credential is checked against: made at the first sign-in, its private half thrown away. */
  private nobodysKey: Uint8Array<ArrayBuffer> | undefined;

  constructor(
    private readonly store: AccountsStore,
    baseUrl: string,
    private readonly log: Logger,
  ) {
    const url = new URL(baseUrl);
    this.rpID = url.hostname;
    this.origin = url.origin;
    this.rpName = `Public Toilet Finder (${url.host})`;
  }

  async creationOptions(registrant: Registrant, nowMs: number): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const { generateRegistrationOptions } = await webauthn();
    const options = await generateRegistrationOptions({
      rpName: this.rpName,
      rpID: this.rpID,
      userName: registrant.name,
      userDisplayName: registrant.name,
      userID: new Uint8Array(registrant.userHandle),
      timeout: CHALLENGE_LIFETIME_MS,
      attestationType: 'none',
      excludeCredentials: registrant.existing.map((p) => ({ id: p.id, transports: JSON.parse(p.transports) as string[] })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    });
    await this.remember(options.challenge, registrant.purpose, registrant.accountId, registrant.userHandle, nowMs);
    return options;
  }

  async requestOptions(nowMs: number): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const { generateAuthenticationOptions } = await webauthn();
    const options = await generateAuthenticationOptions({ rpID: this.rpID, timeout: CHALLENGE_LIFETIME_MS, userVerification: 'required' });
    await this.remember(options.challenge, 'sign-in', null, null, nowMs);
    return options;
  }

  /** Checks a new passkey against the challenge it answers, which must have been asked for `purpose` (and `accountId`). */
  async registration(response: RegistrationResponseJSON, purpose: Registrant['purpose'], accountId: string | null, nowMs: number): Promise<Outcome<NewPasskey>> {
    const lib = await webauthn();
    const challenge = await this.take(lib, response.response.clientDataJSON, nowMs);
    if (challenge === null || challenge.row.purpose !== purpose || challenge.row.account_id !== accountId || challenge.row.user_handle === null) {
      return { ok: false, detail: `${CHALLENGE_GONE.replace('ask for new options', 'ask startPasskeyRegistration for new options')}` };
    }
    let verified;
    try {
      verified = await lib.verifyRegistrationResponse({
        response,
        expectedChallenge: challenge.value,
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        requireUserVerification: true,
        supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
      });
    } catch (error) {
      return { ok: false, detail: `The new passkey was not accepted: ${(error as Error).message}. Start again with startPasskeyRegistration.` };
    }
    if (!verified.verified) return { ok: false, detail: 'The new passkey was not accepted. Start again with startPasskeyRegistration.' };
    const { credential } = verified.registrationInfo;
    if ((await this.store.passkey(credential.id)) !== null) {
      return { ok: false, detail: 'This passkey is registered already (a passkey belongs to one account only). Use it to sign in, or make a new one.' };
    }
    return {
      ok: true,
      value: {
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        accountId,
        userHandle: challenge.row.user_handle,
      },
    };
  }

  /**
   * Checks a sign-in: the challenge, then the signature against the passkey the answer names (or, when no
   * account has it, against a key nobody holds), the user handle, and the counter. Records the use.
   */
  async authentication(response: AuthenticationResponseJSON, nowMs: number): Promise<Outcome<{ account: AccountRow; passkey: PasskeyRow }>> {
    const lib = await webauthn();
    const challenge = await this.take(lib, response.response.clientDataJSON, nowMs);
    if (challenge === null || challenge.row.purpose !== 'sign-in') return { ok: false, detail: CHALLENGE_GONE.replace('ask for new options', 'start again with startSignIn') };
    const passkey = typeof response.id === 'string' ? await this.store.passkey(response.id) : null;
    const account = passkey === null ? null : await this.store.account(passkey.account_id);
    let verified;
    try {
      verified = await lib.verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge.value,
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        // the counter is checked below, once the signature is known to be good
        credential: { id: response.id, publicKey: passkey === null ? (this.nobodysKey ??= coseOfNewKey(lib)) : new Uint8Array(passkey.public_key), counter: 0 },
        requireUserVerification: true,
      });
    } catch {
      return { ok: false, detail: SIGN_IN_FAILED };
    }
    if (!verified.verified || passkey === null || account === null) return { ok: false, detail: SIGN_IN_FAILED };
    const userHandle = response.response.userHandle;
    if (userHandle !== undefined && !Buffer.from(lib.isoBase64URL.toBuffer(userHandle)).equals(account.user_handle)) return { ok: false, detail: SIGN_IN_FAILED };
    const { newCounter } = verified.authenticationInfo;
    if ((newCounter > 0 || passkey.counter > 0) && newCounter <= passkey.counter) {
      this.log.error('passkey signature counter went back: refused (a cloned authenticator?)', { account: account.id, passkey: passkey.id, stored: passkey.counter, sent: newCounter });
      return { ok: false, detail: SIGN_IN_FAILED };
    }
    await this.store.usePasskey(passkey.id, newCounter, nowMs);
    return { ok: true, value: { account, passkey } };
  }

  private remember(challenge: string, purpose: ChallengePurpose, accountId: string | null, userHandle: Buffer | null, nowMs: number): Promise<void> {
    return this.store.insertChallenge(secretHash(challenge), { purpose, account_id: accountId, user_handle: userHandle, expires_at: nowMs + CHALLENGE_LIFETIME_MS }, nowMs);
  }

  /** The challenge a client data JSON answers, taken from the store (used once), when it is known and unexpired. */
  private async take(lib: Library, clientDataJSON: string, nowMs: number) {
    let value: string;
    try {
      value = lib.decodeClientDataJSON(clientDataJSON).challenge;
    } catch {
      return null;
    }
    if (typeof value !== 'string') return null;
    const row = await this.store.takeChallenge(secretHash(value));
    return row === null || row.expires_at <= nowMs ? null : { value, row };
  }
}

/** The COSE form of a fresh P-256 public key whose private key is dropped at once. */
function coseOfNewKey({ isoBase64URL, isoCBOR }: Library): Uint8Array<ArrayBuffer> {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
  return new Uint8Array(isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
    ]),
  ));
}
