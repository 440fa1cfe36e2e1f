// POST /api/users/invitations/accept (public: the invitee has no session yet): the invitation link's token and a
// new password. The token is looked up by its sha256 and spent by one conditional update (unused, unexpired), so
// two tabs racing on one link set at most one password. A deactivated user's invitation is dead too.
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { hashPassword } from '../auth/password';
import { hashInvitationToken } from './invite-user';
import { NewPassword } from './new-password';

export const AcceptInvitationBody = z.object({
  token: z.string().trim().min(1).max(200),
  password: NewPassword,
});
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBody>;

export const AcceptedInvitation = z.object({ ok: z.literal(true), email: z.string() });

const INVALID = 'This invitation link is not valid any more; ask your clinic admin for a new one';

export async function acceptInvitation(
  deps: { db: Db; clock: Clock },
  input: AcceptInvitationBody & { correlationId: string },
): Promise<z.infer<typeof AcceptedInvitation>> {
  const { db } = deps;
  const now = deps.clock();
  const tokenHash = hashInvitationToken(input.token);
  const invitation = await db.userInvitation.findUnique({ where: { tokenHash } });
  const user = invitation
    ? await db.user.findUnique({
        where: { id: invitation.userId },
        select: { id: true, email: true, orgId: true, clinicId: true, deactivatedAt: true },
      })
    : null;
  const refuse = async (reason: string): Promise<never> => {
    await recordAudit(db, {
      action: 'users.invitation.accept',
      outcome: 'refused',
      correlationId: input.correlationId,
      userId: user?.id,
      orgId: user?.orgId,
      clinicId: user?.clinicId,
      detail: { reason },
    });
    throw new AppError('VALIDATION_FAILED', INVALID, { issues: [{ path: 'body.token', message: INVALID }] });
  };
  if (!invitation || !user) return refuse('unknown-token');
  if (invitation.usedAt) return refuse('used');
  if (invitation.expiresAt <= now) return refuse('expired');
  if (user.deactivatedAt) return refuse('deactivated');

  const passwordHash = await hashPassword(input.password);
  const accepted = await db.$transaction(async (tx) => {
    const spent = await tx.userInvitation.updateMany({
      where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (spent.count !== 1) return false;
    await tx.user.update({
      where: { id: user.id },
      data: { passwordHash, failedSignIns: 0, lockedUntil: null, sessionVersion: { increment: 1 } },
    });
    await recordAudit(tx, {
      action: 'users.invitation.accept',
      outcome: 'success',
      correlationId: input.correlationId,
      userId: user.id,
      orgId: user.orgId,
      clinicId: user.clinicId,
    });
    return true;
  });
  if (!accepted) return refuse('used');
  return { ok: true, email: user.email };
}
