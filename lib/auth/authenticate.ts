// Authenticates a request from the request itself (middleware already checked, but a handler never trusts
// that): the session token must decode, and the user row must still agree with it. Lockout, a password or
// MFA change bump sessionVersion, which ends every older session.
import type { Db } from '../db';
import type { Clock } from '../clock';
import { AppError } from '../http/errors';
import type { Principal } from './principal';
import { decodeSessionToken, findSessionToken } from './session-token';

export async function authenticate(
  deps: { db: Db; clock: Clock },
  headers: Headers,
  settings: { secret: string; appUrl: string },
): Promise<Principal> {
  const found = findSessionToken(headers, settings.appUrl);
  if (!found) throw new AppError('UNAUTHENTICATED', 'Sign in to continue');
  const now = deps.clock();
  const claims = await decodeSessionToken(found.token, settings.secret, now);
  const user = await deps.db.user.findUnique({
    where: { id: claims.sub },
    select: { orgId: true, clinicId: true, sessionVersion: true, lockedUntil: true, scopes: true },
  });
  if (!user || user.sessionVersion !== claims.sessionVersion || user.orgId !== claims.orgId || user.clinicId !== claims.clinicId) {
    throw new AppError('UNAUTHENTICATED', 'Your session has ended; sign in again');
  }
  if (user.lockedUntil && user.lockedUntil > now) throw new AppError('UNAUTHENTICATED', 'Your session has ended; sign in again');
  return {
    userId: claims.sub,
    email: claims.email,
    orgId: claims.orgId,
    clinicId: claims.clinicId,
    // A scope removed from the user since sign-in is gone at once: keep only scopes the row still grants.
    scopes: claims.scopes.filter((s) => user.scopes.includes(s)),
    sessionVersion: claims.sessionVersion,
    authenticatedAt: new Date(claims.authenticatedAt * 1000),
    via: found.via,
  };
}
