// Session token decoding with real next-auth JWEs. Decoded tokens are remembered, so these pin what must still
// hold on every later use: expiry and the 8 h lifetime against the caller's clock, and the secret it was made with.
import { randomBytes } from 'node:crypto';
import { encode } from 'next-auth/jwt';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors';
import { decodeSessionToken, SESSION_MAX_AGE_SECONDS, sessionCookieName } from './session-token';

const secret = randomBytes(32).toString('base64url');
const signedInAt = Math.floor(Date.now() / 1000);
const claims = {
  sub: 'user_1',
  email: 'clerk@example.test',
  orgId: 'org_1',
  clinicId: 'clinic_1',
  clinicName: 'North',
  scopes: ['eligibility:read', 'not-a-scope'],
  sessionVersion: 3,
  authenticatedAt: signedInAt,
  sid: 'session_1',
};
const at = (secondsAfterSignIn: number) => new Date((signedInAt + secondsAfterSignIn) * 1000);

async function code(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return isAppError(error) ? error.code : error;
}

describe('decodeSessionToken', () => {
  it('returns the claims, keeping only known scopes', async () => {
    const token = await encode({ token: claims, secret, maxAge: SESSION_MAX_AGE_SECONDS });
    expect(await decodeSessionToken(token, secret, at(1))).toEqual({ ...claims, scopes: ['eligibility:read'] });
  });

  it('still refuses a remembered token once it has expired or outlived the 8 h lifetime', async () => {
    const shortLived = await encode({ token: claims, secret, maxAge: 60 });
    await decodeSessionToken(shortLived, secret, at(1));
    expect(await code(decodeSessionToken(shortLived, secret, at(61)))).toBe('UNAUTHENTICATED');

    const full = await encode({ token: claims, secret, maxAge: 2 * SESSION_MAX_AGE_SECONDS });
    await decodeSessionToken(full, secret, at(1));
    expect(await code(decodeSessionToken(full, secret, at(SESSION_MAX_AGE_SECONDS + 1)))).toBe('UNAUTHENTICATED');
  });

  it('refuses a token without a session id, which sign-out could not revoke', async () => {
    const { sid: _sid, ...withoutSid } = claims;
    const token = await encode({ token: withoutSid, secret, maxAge: SESSION_MAX_AGE_SECONDS });
    expect(await code(decodeSessionToken(token, secret, at(1)))).toBe('UNAUTHENTICATED');
  });

  it('names the cookie __Host- behind https, so no sibling subdomain can set it', () => {
    expect(sessionCookieName('https://app.example')).toBe('__Host-next-auth.session-token');
    expect(sessionCookieName('http://127.0.0.1:3000')).toBe('next-auth.session-token');
  });

  it('does not accept a remembered token under another secret', async () => {
    const token = await encode({ token: claims, secret, maxAge: SESSION_MAX_AGE_SECONDS });
    await decodeSessionToken(token, secret, at(1));
    expect(await code(decodeSessionToken(token, randomBytes(32).toString('base64url'), at(1)))).toBe('UNAUTHENTICATED');
  });
});
