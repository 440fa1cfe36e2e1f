// WebAuthn ceremony challenges: stored server-side (WebAuthnChallenge, keyed by sha256 of the challenge, bound to a
// user and a purpose, 5 minutes) and pointed to from a sealed httpOnly cookie, so a ceremony finishes only in the
// browser that started it, for the same user and purpose, once. Verifying the authenticator's answer is the
// caller's job (register-passkey.ts, verify-passkey-assertion.ts); this module issues and consumes challenges.
import { createHash, hkdfSync } from 'node:crypto';
import { sealData, unsealData } from 'iron-session';
import { z } from 'zod';
import type { Db } from '../db';
import { AppError } from '../errors';
import { buildCookie, clearCookie } from './auth-cookies';
import { readCookie } from './session-token';

export type CeremonyPurpose = 'register' | 'step-up';

export const CHALLENGE_TTL_SECONDS = 300;

const CEREMONY_COOKIES: Record<CeremonyPurpose, { name: string; path: string }> = {
  register: { name: 'svc-webauthn-reg', path: '/api/auth/webauthn/register' },
  'step-up': { name: 'svc-webauthn-auth', path: '/api/auth/step-up' },
};

const CookieContent = z.object({ challenge: z.string().min(16).max(256), userId: z.string(), purpose: z.enum(['register', 'step-up']) });

const challengeId = (challenge: string) => createHash('sha256').update(challenge, 'utf8').digest('hex');

// The cookie is sealed (iron, AES-256-CBC + HMAC) under a key derived from AUTH_SECRET for this use alone, so the
// session secret itself never seals anything else and a cookie cannot be forged or edited.
function cookiePassword(authSecret: string): string {
  return Buffer.from(hkdfSync('sha256', authSecret, 'svc-webauthn', 'webauthn ceremony cookie v1', 32)).toString('hex');
}

/**
 * Stores a fresh challenge (dropping the user's earlier ones of the same purpose and any expired ones, so the
 * table stays small) and returns the Set-Cookie value that points to it.
 */
export async function issueWebAuthnChallenge(
  deps: { db: Db },
  input: { challenge: string; userId: string; purpose: CeremonyPurpose; now: Date; authSecret: string; appUrl: string },
): Promise<string> {
  const { db } = deps;
  await db.webAuthnChallenge.deleteMany({
    where: { OR: [{ userId: input.userId, purpose: input.purpose }, { expiresAt: { lte: input.now } }] },
  });
  await db.webAuthnChallenge.create({
    data: {
      id: challengeId(input.challenge), userId: input.userId, purpose: input.purpose,
      expiresAt: new Date(input.now.getTime() + CHALLENGE_TTL_SECONDS * 1000),
    },
  });
  const sealed = await sealData(
    { challenge: input.challenge, userId: input.userId, purpose: input.purpose },
    { password: cookiePassword(input.authSecret), ttl: CHALLENGE_TTL_SECONDS },
  );
  const cookie = CEREMONY_COOKIES[input.purpose];
  return buildCookie(cookie.name, sealed, { maxAgeSeconds: CHALLENGE_TTL_SECONDS, path: cookie.path, appUrl: input.appUrl });
}

/** The Set-Cookie value that ends a ceremony's cookie; sent with every verify answer, success or not. */
export function clearCeremonyCookie(purpose: CeremonyPurpose, appUrl: string): string {
  const cookie = CEREMONY_COOKIES[purpose];
  return clearCookie(cookie.name, { path: cookie.path, appUrl });
}

/**
 * Reads the ceremony cookie and spends its challenge with one conditional delete (this user, this purpose,
 * unexpired), before the caller verifies anything: a second verify with the same challenge finds no row.
 * Returns the challenge the authenticator must have signed. Throws VALIDATION_FAILED when the cookie is
 * missing, unreadable, foreign or its challenge is spent or expired.
 */
export async function consumeWebAuthnChallenge(
  deps: { db: Db },
  input: { headers: Headers; userId: string; purpose: CeremonyPurpose; now: Date; authSecret: string },
): Promise<string> {
  const missing = () =>
    new AppError('VALIDATION_FAILED', 'The passkey challenge is missing or has expired; start again', {
      issues: [{ path: 'cookie', message: 'No valid challenge for this ceremony' }],
    });
  const sealed = readCookie(input.headers, CEREMONY_COOKIES[input.purpose].name);
  if (!sealed) throw missing();
  const content = CookieContent.safeParse(
    await unsealData(sealed, { password: cookiePassword(input.authSecret), ttl: CHALLENGE_TTL_SECONDS }),
  );
  if (!content.success || content.data.userId !== input.userId || content.data.purpose !== input.purpose) throw missing();
  const { count } = await deps.db.webAuthnChallenge.deleteMany({
    where: { id: challengeId(content.data.challenge), userId: input.userId, purpose: input.purpose, expiresAt: { gt: input.now } },
  });
  if (count !== 1) throw missing();
  return content.data.challenge;
}
