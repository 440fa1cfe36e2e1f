// POST /api/users: an admin invites a new user of their own clinic with some of the admin's own scopes. The user
// is created without a usable password, plus a single-use invitation (7 days); the link is answered once and only
// its sha256 is stored, so the database never holds a usable token. A scope the admin does not hold is refused
// (403) before anything is written: nobody can grant more than they have (DECISIONS "Staff app").
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { isUniqueViolation } from '../db/is-unique-violation';
import { scopesNotHeld } from './change-clinic-user';
import { ScopeList } from './scope-list';
import { INVITED_PASSWORD_HASH, toUserView, UserView } from './user-view';

export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;

export const InviteUserBody = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(320)
    .pipe(z.email({ message: 'Enter the e-mail address the person signs in with' })),
  scopes: ScopeList,
});
export type InviteUserBody = z.infer<typeof InviteUserBody>;

export const Invitation = z.object({
  user: UserView,
  /** The link the invitee opens to set a password. Shown once: only its hash is stored. */
  invitationUrl: z.string(),
  expiresAt: z.iso.datetime(),
});
export type Invitation = z.infer<typeof Invitation>;

export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('hex');

type Inviter = { clinicId: string; orgId: string; userId: string; correlationId: string; scopes: readonly string[] };

export async function inviteUser(
  deps: { db: Db; clock: Clock; config: { appUrl: string } },
  input: InviteUserBody & { inviter: Inviter },
): Promise<Invitation> {
  const { db } = deps;
  const { inviter } = input;
  const now = deps.clock();
  const audit = {
    action: 'users.invite',
    correlationId: inviter.correlationId,
    userId: inviter.userId,
    orgId: inviter.orgId,
    clinicId: inviter.clinicId,
  };
  const scopes = [...new Set(input.scopes)];
  const notHeld = scopesNotHeld(inviter, scopes);
  if (notHeld.length > 0) {
    await recordAudit(db, { ...audit, outcome: 'refused', detail: { reason: 'scope-not-held', scopes: notHeld } });
    throw new AppError('FORBIDDEN', `You can't grant a scope you don't hold: ${notHeld.join(', ')}`);
  }

  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000);
  const userId = `user_${randomBytes(9).toString('base64url')}`;
  let created;
  try {
    created = await db.$transaction(async (tx) => {
      const user = await tx.user.create({
        data: {
          id: userId,
          orgId: inviter.orgId,
          clinicId: inviter.clinicId,
          email: input.email,
          passwordHash: INVITED_PASSWORD_HASH,
          scopes,
          invitedBy: inviter.userId,
        },
      });
      await tx.userInvitation.create({ data: { tokenHash: hashInvitationToken(token), userId, expiresAt } });
      await recordAudit(tx, { ...audit, outcome: 'success', detail: { invitedUserId: userId, scopes } });
      return user;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await recordAudit(db, { ...audit, outcome: 'refused', detail: { reason: 'email-taken' } });
    const message = 'A user with this e-mail address already exists';
    throw new AppError('VALIDATION_FAILED', message, { issues: [{ path: 'body.email', message }] });
  }
  const url = new URL('/login/accept', deps.config.appUrl);
  url.searchParams.set('token', token);
  return { user: toUserView(created, now, true), invitationUrl: url.toString(), expiresAt: expiresAt.toISOString() };
}
