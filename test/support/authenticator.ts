// A software authenticator for the tests: passkeys as ES256 key pairs made with node:crypto, with `none`
// attestation, answering the server's options with the standard WebAuthn JSON forms
// (RegistrationResponseJSON, AuthenticationResponseJSON) that @simplewebauthn/browser would send. The
// server checks them with the real @simplewebauthn/server; nothing here knows how it does. Options let a
// test make a bad answer: another origin, no user verification, a counter that goes back, a wrong key.
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

export interface Passkey {
  id: string;
  privateKey: KeyObject;
  /** The user handle (base64url) the server gave it. */
  userHandle: string;
  counter: number;
}

export interface AnswerOptions {
  /** The origin in the client data (default: the authenticator's). */
  origin?: string;
  /** Whether the user was verified (UV flag); default true. */
  userVerified?: boolean;
}

export interface RegisterOptions extends AnswerOptions {
  /** Register again the passkey with this id (its key and id) rather than make a new one. */
  reuse?: string;
}

const b64url = (bytes: Uint8Array | Buffer | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

export class SoftwareAuthenticator {
  /** Every passkey made, by credential id. */
  readonly passkeys = new Map<string, Passkey>();

  constructor(
    readonly origin: string,
    readonly rpId = new URL(origin).hostname,
  ) {}

  /** Makes a passkey for creation options (PublicKeyCredentialCreationOptionsJSON). */
  register(options: any, answer: RegisterOptions = {}): any {
    const reused = answer.reuse === undefined ? undefined : this.passkeys.get(answer.reuse)!;
    const privateKey = reused?.privateKey ?? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
    const id = reused?.id ?? b64url(randomBytes(16));
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idBytes = Buffer.from(id, 'base64url');
    const credentialLength = Buffer.alloc(2);
    credentialLength.writeUInt16BE(idBytes.length);
    const authData = Buffer.concat([this.authDataHead(answer, 0, 0x40), Buffer.alloc(16), credentialLength, idBytes, Buffer.from(cose)]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as any,
    );
    this.passkeys.set(id, { id, privateKey, userHandle: options.user.id, counter: 0 });
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: { clientDataJSON: this.clientData('webauthn.create', options.challenge, answer), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * Signs request options (PublicKeyCredentialRequestOptionsJSON) with passkey `id` (default: the newest),
   * counting up as an authenticator does, unless `counter` says what to send.
   */
  assert(options: any, id?: string, answer: AnswerOptions & { counter?: number; signWith?: KeyObject } = {}): any {
    const passkey = id === undefined ? [...this.passkeys.values()].at(-1)! : this.passkeys.get(id)!;
    const counter = answer.counter ?? ++passkey.counter;
    const authData = this.authDataHead(answer, counter, 0);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, answer);
    const signature = sign('sha256', Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), answer.signWith ?? passkey.privateKey);
    return {
      id: passkey.id,
      rawId: passkey.id,
      type: 'public-key',
      response: { clientDataJSON, authenticatorData: b64url(authData), signature: b64url(signature), userHandle: passkey.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** A passkey nobody registered, with an id and key of its own. */
  stranger(): SoftwareAuthenticator {
    return new SoftwareAuthenticator(this.origin, this.rpId);
  }

  private clientData(type: string, challenge: string, answer: AnswerOptions): string {
    return b64url(JSON.stringify({ type, challenge, origin: answer.origin ?? this.origin, crossOrigin: false }));
  }

  /** RP ID hash, flags (UP, UV unless told otherwise, plus `extraFlags`), signature counter. */
  private authDataHead(answer: AnswerOptions, counter: number, extraFlags: number): Buffer {
    const head = Buffer.alloc(37);
    sha256(this.rpId).copy(head, 0);
    head[32] = 0x01 | (answer.userVerified === false ? 0 : 0x04) | extraFlags;
    head.writeUInt32BE(counter, 33);
    return head;
  }
}
