// Passkey as a step-up factor: authentication options for the caller's own passkeys, and verification of the
// assertion that comes back. Owns the WebAuthn checks only; the challenge lives in webauthn-challenge.ts, rate
// limits, audit and the claim in grant-step-up.ts.
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticatorTransport,
} from '@simplewebauthn/server';
import type { Db } from '../db';
import type { AuthenticationResponseJson } from './webauthn-schemas';

type RelyingParty = { rpId: string; origin: string };

/** Options for navigator.credentials.get limited to this user's passkeys; user verification is required. */
export async function buildPasskeyAssertionOptions(db: Db, userId: string, rp: RelyingParty) {
  const passkeys = await db.webAuthnCredential.findMany({ where: { userId }, select: { id: true, transports: true } });
  return generateAuthenticationOptions({
    rpID: rp.rpId,
    allowCredentials: passkeys.map((p) => ({ id: p.id, transports: p.transports as AuthenticatorTransport[] })),
    userVerification: 'required',
    timeout: 120_000,
  });
}

/**
 * True when `response` is a valid assertion over `challenge` by one of this user's passkeys, with user
 * verification, from our origin and RP id, and a signature counter that moved forward (or an authenticator that
 * keeps none). Records the new counter and last use. Never throws for a bad assertion: it returns false.
 */
export async function verifyPasskeyAssertion(
  db: Db,
  input: { userId: string; response: AuthenticationResponseJson; challenge: string; rp: RelyingParty; now: Date },
): Promise<boolean> {
  // Only the caller's own passkeys count: another user's credential id is simply unknown here.
  const passkey = await db.webAuthnCredential.findFirst({ where: { id: input.response.id, userId: input.userId } });
  if (!passkey) return false;
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: input.challenge,
      expectedOrigin: input.rp.origin,
      expectedRPID: input.rp.rpId,
      requireUserVerification: true,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: Number(passkey.counter),
        transports: passkey.transports as AuthenticatorTransport[],
      },
    });
  } catch {
    return false; // malformed data, wrong key, wrong origin, or a counter that went backwards (a cloned key)
  }
  if (!verification.verified) return false;
  // Conditional on the counter we verified against, so two racing assertions cannot both move it.
  const { count } = await db.webAuthnCredential.updateMany({
    where: { id: passkey.id, counter: passkey.counter },
    data: { counter: BigInt(verification.authenticationInfo.newCounter), lastUsedAt: input.now },
  });
  return count === 1;
}
