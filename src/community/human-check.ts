// The human check contributions need when no account is signed in (spec, Authentication 5). Providers
// sit behind one interface, chosen by HUMAN_CHECK: the self-hosted ALTCHA proof of work now; a
// Turnstile-style service would verify its token with the provider in `verify` and need no `challenge`.
import { createChallenge, randomInt, verifySolution, type Challenge, type DeriveKeyFunction, type Solution } from 'altcha-lib';
import { deriveKey as deriveSha } from 'altcha-lib/algorithms/sha';
import { deriveKey as derivePbkdf2 } from 'altcha-lib/algorithms/pbkdf2';
import type { HumanCheckConfig } from './config.js';
import type { HumanCheckFailure, HumanCheckPass, HumanCheckVerifier } from '../api/guards.js';
import { derivedSecret } from './pseudonyms.js';

export interface HumanCheck extends HumanCheckVerifier {
  /** A new challenge for the site's widget, as JSON text. */
  challenge(nowMs: number): Promise<string>;
}

export function createHumanCheck(config: HumanCheckConfig, serverKey: Buffer): HumanCheck {
  switch (config.provider) {
    case 'altcha':
      return new AltchaCheck(config, derivedSecret(serverKey, 'altcha challenge signature'), derivedSecret(serverKey, 'altcha key signature'));
  }
}

/**
 * ALTCHA v2 in deterministic mode: the server picks the secret counter, signs the challenge and the key
 * it derives, so verifying is two HMAC checks (no re-derivation). The expiry travels in the signed `data`
 * (`expires`, epoch seconds) and is checked with the server's clock; the library's own expiresAt check
 * would read the wall clock.
 */
class AltchaCheck implements HumanCheck {
  private readonly deriveKey: DeriveKeyFunction;

  constructor(
    private readonly config: HumanCheckConfig,
    private readonly signatureSecret: string,
    private readonly keySignatureSecret: string,
  ) {
    this.deriveKey = config.algorithm.startsWith('PBKDF2/') ? derivePbkdf2 : deriveSha;
  }

  async challenge(nowMs: number): Promise<string> {
    const challenge = await createChallenge({
      algorithm: this.config.algorithm,
      cost: this.config.cost,
      counter: randomInt(this.config.maxCounter, Math.ceil(this.config.maxCounter / 2)),
      deriveKey: this.deriveKey,
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySignatureSecret,
      data: { expires: Math.floor(nowMs / 1000) + this.config.expiresSeconds },
    });
    return JSON.stringify(challenge);
  }

  /** The human check of a request body (the guard chain's step): its `challenge_token`, verified. */
  verifyBody(body: Readonly<Record<string, unknown>> | null, nowMs: number): Promise<HumanCheckPass | HumanCheckFailure> {
    const token = body?.challenge_token;
    if (typeof token !== 'string') return Promise.resolve({ ok: false, reason: 'challenge_token is missing: solve a challenge from GET /api/v1/challenge' });
    return this.verify(token, nowMs);
  }

  async verify(token: string, nowMs: number): Promise<HumanCheckPass | HumanCheckFailure> {
    const payload = decodePayload(token);
    if (payload === null) return { ok: false, reason: 'challenge_token is not an ALTCHA payload (base64 of {"challenge", "solution"})' };
    const expires = payload.challenge.parameters.data?.expires;
    if (typeof expires !== 'number') return { ok: false, reason: 'the challenge was not issued by this server' };
    if (expires * 1000 < nowMs) return { ok: false, reason: 'the challenge expired; solve a new one' };
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey: this.deriveKey,
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySignatureSecret,
    });
    if (!result.verified) return { ok: false, reason: result.invalidSignature ? 'the challenge was not issued by this server' : 'the solution is wrong' };
    return { ok: true, key: payload.challenge.signature!, expiresAtMs: expires * 1000 };
  }
}

function decodePayload(token: string): { challenge: Challenge; solution: Solution } | null {
  try {
    const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    const { challenge, solution } = payload ?? {};
    const wellFormed =
      typeof challenge?.parameters === 'object' && challenge.parameters !== null && typeof challenge.signature === 'string' && typeof solution === 'object' && solution !== null;
    return wellFormed ? { challenge, solution } : null;
  } catch {
    return null;
  }
}
