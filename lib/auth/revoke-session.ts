// Sign-out on the server: the session's id goes into RevokedSession until the session would have ended anyway, so
// every copy of its token (a cookie copied elsewhere, a bearer handed to a script) stops working at once
// (authenticate.ts checks on every API call, isSessionRevoked on next-auth's own session read). Does not touch
// cookies; next-auth clears its own and next-auth.ts the step-up one.
import type { Db } from '../db';
import { SESSION_MAX_AGE_SECONDS } from './session-token';

export async function revokeSession(
  db: Db,
  session: { sid: string; sub: string; authenticatedAt: number },
  now: Date,
): Promise<void> {
  const expiresAt = new Date((session.authenticatedAt + SESSION_MAX_AGE_SECONDS) * 1000);
  await db.revokedSession.upsert({
    where: { tokenId: session.sid },
    create: { tokenId: session.sid, userId: session.sub, expiresAt },
    update: {},
  });
  // Rows outlive their use only until the session's own end; sign-outs are rare, so they sweep as they go.
  await db.revokedSession.deleteMany({ where: { expiresAt: { lt: now } } });
}

export async function isSessionRevoked(db: Db, sid: string): Promise<boolean> {
  return (await db.revokedSession.count({ where: { tokenId: sid } })) > 0;
}
