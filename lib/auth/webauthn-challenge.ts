// WebAuthn ceremony challenges: stored server-side (WebAuthnChallenge, keyed by sha256 of the challenge, bound to a
// user and a purpose, 5 minutes) and reached through a sealed pointer the browser keeps (an httpOnly cookie, which
// lib/http/ceremony-cookie.ts names and sets), so a ceremony finishes only in the browser that started it, for the
// same user and purpose, once. Verifying the authenticator's answer is the caller's job (register-passkey.ts,
// verify-passkey-assertion.ts); this module issues and consumes challenges.
import { createHash, hkdfSync } from 'node:crypto';
import { sealData, unsealData } from 'iron-session';
import { z } from 'zod';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { CeremonyOptions } from './webauthn-schemas';

export type CeremonyPurpose = 'register' | 'step-up';

const CHALLENGE_TTL_SECONDS = 300;

/** The sealed pointer to a stored challenge, for the browser to keep as long as the challenge lives. */
export type CeremonyPointer = { purpose: CeremonyPurpose; sealed: string; maxAgeSeconds: number };

/** The answer to a ceremony's first step: the options for the browser, and the pointer for it to keep. */
export type CeremonyStarted = { kind: 'ceremony-started'; body: CeremonyOptions; ceremony: CeremonyPointer };

const PointerContent = z.object({
  challenge: z.string().min(16).max(256),
  userId: z.string(),
  purpose: z.enum(['register', 'step-up']),
});

const challengeId = (challenge: string) => createHash('sha256').update(challenge, 'utf8').digest('hex');

// The pointer is sealed (iron, AES-256-CBC + HMAC) under a key derived from AUTH_SECRET for this use alone, so the
// session secret itself never seals anything else and a pointer cannot be forged or edited. (The HKDF info keeps
// its original wording: changing it would orphan every ceremony in flight.)
function pointerPassword(authSecret: string): string {
  return Buffer.from(hkdfSync('sha256', authSecret, 'svc-webauthn', 'webauthn ceremony cookie v1', 32)).toString('hex');
}

/**
 * Stores a fresh challenge (dropping the user's earlier ones of the same purpose and any expired ones, so the
 * table stays small) and returns the sealed pointer to it.
 */
export async function issueWebAuthnChallenge(
  deps: { db: Db },
  input: { challenge: string; userId: string; purpose: CeremonyPurpose; now: Date; authSecret: string },
): Promise<CeremonyPointer> {
  const { db } = deps;
  await db.webAuthnChallenge.deleteMany({
    where: { OR: [{ userId: input.userId, purpose: input.purpose }, { expiresAt: { lte: input.now } }] },
  });
  await db.webAuthnChallenge.create({
    data: {
      id: challengeId(input.challenge),
      userId: input.userId,
      purpose: input.purpose,
      expiresAt: new Date(input.now.getTime() + CHALLENGE_TTL_SECONDS * 1000),
    },
  });
  const sealed = await sealData(
    { challenge: input.challenge, userId: input.userId, purpose: input.purpose },
    { password: pointerPassword(input.authSecret), ttl: CHALLENGE_TTL_SECONDS },
  );
  return { purpose: input.purpose, sealed, maxAgeSeconds: CHALLENGE_TTL_SECONDS };
}

/**
 * Unseals the pointer the browser sent back and spends its challenge with one conditional delete (this user, this
 * purpose, unexpired), before the caller verifies anything: a second verify with the same challenge finds no row.
 * Returns the challenge the authenticator must have signed. Throws VALIDATION_FAILED when the pointer is
 * missing, unreadable, foreign or its challenge is spent or expired.
 */
export async function consumeWebAuthnChallenge(
  deps: { db: Db },
  input: { sealedPointer: string | undefined; userId: string; purpose: CeremonyPurpose; now: Date; authSecret: string },
): Promise<string> {
  const missing = () =>
    new AppError('VALIDATION_FAILED', 'The passkey challenge is missing or has expired; start again', {
      issues: [{ path: 'cookie', message: 'No valid challenge for this ceremony' }],
    });
  if (!input.sealedPointer) throw missing();
  const content = PointerContent.safeParse(
    await unsealData(input.sealedPointer, { password: pointerPassword(input.authSecret), ttl: CHALLENGE_TTL_SECONDS }),
  );
  if (!content.success || content.data.userId !== input.userId || content.data.purpose !== input.purpose)
    throw missing();
  const { count } = await deps.db.webAuthnChallenge.deleteMany({
    where: {
      id: challengeId(content.data.challenge),
      userId: input.userId,
      purpose: input.purpose,
      expiresAt: { gt: input.now },
    },
  });
  if (count !== 1) throw missing();
  return content.data.challenge;
}
