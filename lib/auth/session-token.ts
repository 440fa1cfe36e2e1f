// The session: next-auth's JWT (an encrypted JWE under AUTH_SECRET), carried in its httpOnly cookie or, for
// server callers, as `Authorization: Bearer <token>`. This module names the cookie and reads the token; the
// claims are written by lib/auth/next-auth.ts at sign-in. Whether a session was signed out (revoked) is the
// database's to say: lib/auth/authenticate.ts checks it on every use.
import { decode } from 'next-auth/jwt';
import { AppError } from '../errors';
import { isScope, type Scope } from './scopes';
import type { SignedInUser } from './sign-in';

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/** The signed-in user as the token carries it (`sub` is the user id, as JWT names it). */
export type SessionClaims = Omit<SignedInUser, 'id'> & {
  sub: string;
  /** Epoch seconds of the sign-in; the 8 h lifetime is counted from here, not rolled by activity. */
  authenticatedAt: number;
  /**
   * The session's id, minted at sign-in. next-auth re-encodes the token (new `jti`, new expiry) whenever the
   * session is read, so every copy of one session shares this id and sign-out revokes them all by it.
   */
  sid: string;
};

/**
 * On https the cookie is `__Host-` prefixed: the browser then accepts it only with Secure, Path=/ and no Domain,
 * so a sibling subdomain cannot plant or overwrite a session (next-auth's own default there is __Secure-).
 */
export const sessionCookieName = (appUrl: string) =>
  appUrl.startsWith('https://') ? '__Host-next-auth.session-token' : 'next-auth.session-token';

export function readCookie(headers: Headers, name: string): string | undefined {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function findSessionToken(
  headers: Headers,
  appUrl: string,
): { token: string; via: 'cookie' | 'bearer' } | undefined {
  const cookie = readCookie(headers, sessionCookieName(appUrl));
  if (cookie) return { token: cookie, via: 'cookie' };
  const [scheme, token] = (headers.get('authorization') ?? '').split(' ');
  if (scheme === 'Bearer' && token) return { token, via: 'bearer' };
  return undefined;
}

const unauthenticated = () => new AppError('UNAUTHENTICATED', 'Sign in to continue');

// next-auth's decode derives the key with HKDF and decrypts the JWE on every call, and a request decodes its
// token twice (middleware, then the wrapper). A token's claims never change, so tokens that decoded are
// remembered, per secret, in a bounded map (oldest out first); expiry and lifetime are still checked on every
// use, and a token that failed to decode is not remembered.
const DECODED_CAPACITY = 1_000;
const decoded = new Map<string, { secret: string; claims: Record<string, unknown> }>();

async function decodeOnce(token: string, secret: string): Promise<Record<string, unknown> | null> {
  const known = decoded.get(token);
  if (known?.secret === secret) return known.claims;
  const claims = (await decode({ token, secret })) as Record<string, unknown> | null;
  if (claims) {
    if (decoded.size >= DECODED_CAPACITY) decoded.delete(decoded.keys().next().value!);
    decoded.set(token, { secret, claims });
  }
  return claims;
}

/** Decodes and checks a session token's shape, expiry and lifetime. Throws UNAUTHENTICATED. */
export async function decodeSessionToken(token: string, secret: string, now: Date): Promise<SessionClaims> {
  let claims: Record<string, unknown> | null;
  try {
    claims = await decodeOnce(token, secret);
  } catch (cause) {
    throw new AppError('UNAUTHENTICATED', 'Sign in to continue', { cause });
  }
  if (!claims) throw unauthenticated();
  const { sub, email, orgId, clinicId, clinicName, scopes, sessionVersion, authenticatedAt, sid, exp } = claims;
  if (
    typeof sub !== 'string' ||
    typeof email !== 'string' ||
    typeof orgId !== 'string' ||
    typeof clinicId !== 'string' ||
    typeof sid !== 'string' ||
    !sid ||
    typeof sessionVersion !== 'number' ||
    typeof authenticatedAt !== 'number' ||
    typeof exp !== 'number' ||
    !Array.isArray(scopes)
  )
    throw unauthenticated();
  const nowSeconds = now.getTime() / 1000;
  if (nowSeconds >= exp || nowSeconds - authenticatedAt > SESSION_MAX_AGE_SECONDS) throw unauthenticated();
  return {
    sub,
    email,
    orgId,
    clinicId,
    clinicName: typeof clinicName === 'string' ? clinicName : '',
    scopes: scopes.filter((s): s is Scope => typeof s === 'string' && isScope(s)),
    sessionVersion,
    authenticatedAt,
    sid,
  };
}
