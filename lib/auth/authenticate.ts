// Authenticates a request from the request itself (middleware already checked, but a handler never trusts
// that): the session token must decode, the user row must still agree with it, and the session must not have
// been signed out. Lockout, a password or MFA change bump sessionVersion, which ends every older session;
// sign-out revokes one session by its id (RevokedSession), every copy of its token included. A deactivated user's
// sessions stop at once (deactivation also bumps sessionVersion; the row check holds even if it did not).
import type { Db } from '../db';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { DEFAULT_TIME_ZONE } from '../time/clinic-day';
import type { Principal } from './principal';
import { decodeSessionToken, findSessionToken } from './session-token';

// The user row, the revocation check and the clinic's time zone in ONE statement: this runs on every
// authenticated request, and a separate lookup would add a database round trip to each (bench/load measures this
// path). The zone is read fresh each time, so a change in clinic settings applies to the next request. Prepared
// once per connection (lib/db.ts): parsed and planned anew, it was most of PostgreSQL's work on a cached verify.
const USER_AND_REVOCATION = `-- prepared: user-and-revocation
  SELECT u."orgId", u."clinicId", u."sessionVersion", u."lockedUntil", u."deactivatedAt", u."scopes",
         EXISTS (SELECT 1 FROM "RevokedSession" r WHERE r."tokenId" = $2) AS "revoked",
         (SELECT c."timeZone" FROM "Clinic" c WHERE c."id" = u."clinicId") AS "clinicTimeZone"
  FROM "User" u WHERE u."id" = $1`;

type UserRow = {
  orgId: string;
  clinicId: string;
  sessionVersion: number;
  lockedUntil: Date | null;
  deactivatedAt: Date | null;
  scopes: string[] | null;
  revoked: boolean;
  clinicTimeZone: string | null;
};

const ended = () => new AppError('UNAUTHENTICATED', 'Your session has ended; sign in again');

export async function authenticate(
  deps: { db: Db; clock: Clock },
  headers: Headers,
  settings: { secret: string; appUrl: string },
): Promise<Principal> {
  const found = findSessionToken(headers, settings.appUrl);
  if (!found) throw new AppError('UNAUTHENTICATED', 'Sign in to continue');
  const now = deps.clock();
  const claims = await decodeSessionToken(found.token, settings.secret, now);
  const [user] = await deps.db.$queryRawUnsafe<UserRow[]>(USER_AND_REVOCATION, claims.sub, claims.sid);
  if (!user || user.revoked) throw ended();
  if (
    Number(user.sessionVersion) !== claims.sessionVersion ||
    user.orgId !== claims.orgId ||
    user.clinicId !== claims.clinicId
  )
    throw ended();
  if (user.lockedUntil && new Date(user.lockedUntil) > now) throw ended();
  if (user.deactivatedAt) throw ended();
  const granted = user.scopes ?? [];
  return {
    userId: claims.sub,
    email: claims.email,
    orgId: claims.orgId,
    clinicId: claims.clinicId,
    // A scope removed from the user since sign-in is gone at once: keep only scopes the row still grants.
    scopes: claims.scopes.filter((s) => granted.includes(s)),
    sessionVersion: claims.sessionVersion,
    sessionId: claims.sid,
    clinicTimeZone: user.clinicTimeZone ?? DEFAULT_TIME_ZONE,
    authenticatedAt: new Date(claims.authenticatedAt * 1000),
    via: found.via,
  };
}
