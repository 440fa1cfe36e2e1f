// The shape every admin action on a user shares (unlock, reset MFA, deactivate, edit scopes): the target must be a
// user of the admin's clinic (another clinic's user answers exactly like a missing one: 404, audited as refused),
// every scope the target holds must be one the admin holds too (403 otherwise, as for invitations: an admin never
// reaches a user with more power than their own; DECISIONS "Security findings of 2026-11-28"), the change and its
// audit row are one transaction, and the answer is the user as the list shows them.
import type { Clock } from '../clock';
import type { Db, Prisma } from '../db';
import { recordAudit } from '../audit/record-audit';
import { AppError } from '../errors';
import { findPendingInvitations, getClinicUser, toUserView, USER_VIEW_SELECT, type UserView } from './user-view';

export type Admin = {
  clinicId: string;
  orgId: string;
  userId: string;
  correlationId: string;
  /** The admin's own scopes: the reach of every action. */
  scopes: readonly string[];
};

type Target = Awaited<ReturnType<typeof getClinicUser>>;

type Change = {
  /** The audit action, e.g. users.unlock. */
  action: string;
  /** Refuses (throws an AppError) before anything changes; the refusal is audited with its code as reason. */
  check?: (target: Target) => void;
  apply: (tx: Prisma.TransactionClient, userId: string, now: Date) => Promise<Prisma.InputJsonValue | void>;
};

/** The scopes of `held` that `admin` does not hold, each once, in the order held. */
export const scopesNotHeld = (admin: { scopes: readonly string[] }, held: readonly string[]) =>
  [...new Set(held)].filter((scope) => !admin.scopes.includes(scope));

export async function changeClinicUser(
  deps: { db: Db; clock: Clock },
  admin: Admin,
  targetId: string,
  change: Change,
): Promise<{ user: UserView }> {
  const { db } = deps;
  const now = deps.clock();
  const entry = {
    action: change.action,
    correlationId: admin.correlationId,
    userId: admin.userId,
    orgId: admin.orgId,
    clinicId: admin.clinicId,
  };
  const refuse = async (error: unknown, detail: Record<string, Prisma.InputJsonValue> = {}): Promise<never> => {
    const reason = error instanceof AppError ? error.code : 'error';
    await recordAudit(db, { ...entry, outcome: 'refused', detail: { targetUserId: targetId, reason, ...detail } });
    throw error;
  };
  let target: Target;
  try {
    target = await getClinicUser(db, { clinicId: admin.clinicId, id: targetId });
  } catch (error) {
    return refuse(error);
  }
  const beyondReach = scopesNotHeld(admin, target.scopes);
  if (beyondReach.length > 0)
    return refuse(
      new AppError('FORBIDDEN', `You can't change a user who holds a scope you don't hold: ${beyondReach.join(', ')}`),
      { scopes: beyondReach },
    );
  try {
    change.check?.(target);
  } catch (error) {
    return refuse(error);
  }
  const row = await db.$transaction(async (tx) => {
    const detail = await change.apply(tx, target.id, now);
    await recordAudit(tx, {
      ...entry,
      outcome: 'success',
      detail: { targetUserId: target.id, ...(detail && typeof detail === 'object' ? detail : {}) },
    });
    return tx.user.findUniqueOrThrow({ where: { id: target.id }, select: USER_VIEW_SELECT });
  });
  const pending = await findPendingInvitations(db, [row.id], now);
  return { user: toUserView(row, now, pending.has(row.id)) };
}
