// What an admin sees of a clinic user: who, which scopes, and the states they can act on (locked, MFA on,
// deactivated, invitation not yet accepted). Never a hash, secret, code or token. Also the clinic lookup that
// every user action shares: another clinic's user answers exactly like a missing one (404), so ids reveal nothing.
import { z } from 'zod';
import type { Db } from '../db';
import { AppError } from '../errors';

export const UserView = z.object({
  id: z.string(),
  email: z.string(),
  scopes: z.array(z.string()),
  mfaEnabled: z.boolean(),
  /** lockedUntil is in the future: sign-in refuses until then, or until an admin unlocks. */
  locked: z.boolean(),
  lockedUntil: z.iso.datetime().nullable(),
  deactivated: z.boolean(),
  deactivatedAt: z.iso.datetime().nullable(),
  /** Invited and the invitation not yet accepted: the account has no usable password. */
  invitationPending: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type UserView = z.infer<typeof UserView>;

export const UserEnvelope = z.object({ user: UserView });

export const UserParams = z.object({ id: z.string().trim().min(1).max(200) });

/** The columns toUserView reads (a select, so no hash or secret is ever loaded for a view). */
export const USER_VIEW_SELECT = {
  id: true,
  email: true,
  scopes: true,
  mfaEnabled: true,
  lockedUntil: true,
  deactivatedAt: true,
  createdAt: true,
} as const;

/** An invited user's password hash until the invitation is accepted: no password ever verifies against it. */
export const INVITED_PASSWORD_HASH = 'invited$no-password-yet';

type ViewRow = {
  id: string;
  email: string;
  scopes: string[];
  mfaEnabled: boolean;
  lockedUntil: Date | null;
  deactivatedAt: Date | null;
  createdAt: Date;
};

export function toUserView(row: ViewRow, now: Date, invitationPending: boolean): UserView {
  const locked = !!row.lockedUntil && row.lockedUntil > now;
  return {
    id: row.id,
    email: row.email,
    scopes: row.scopes,
    mfaEnabled: row.mfaEnabled,
    locked,
    lockedUntil: locked ? row.lockedUntil!.toISOString() : null,
    deactivated: !!row.deactivatedAt,
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    invitationPending,
    createdAt: row.createdAt.toISOString(),
  };
}

/** True for each user id that still waits on an unused, unexpired invitation. */
export async function findPendingInvitations(db: Db, userIds: readonly string[], now: Date): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.userInvitation.findMany({
    where: { userId: { in: [...userIds] }, usedAt: null, expiresAt: { gt: now } },
    select: { userId: true },
  });
  return new Set(rows.map((r) => r.userId));
}

/** @throws NOT_FOUND for an unknown id and for another clinic's user alike. */
export async function getClinicUser(db: Db, input: { clinicId: string; id: string }) {
  const row = await db.user.findFirst({
    where: { id: input.id, clinicId: input.clinicId },
    select: USER_VIEW_SELECT,
  });
  if (!row) throw new AppError('NOT_FOUND', 'No such user in your clinic');
  return row;
}
