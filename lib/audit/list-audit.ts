// GET /api/audit: the clinic's security and money trail for its admin, newest first, at most 100 entries. Two
// sources in one list: the audit log (sign-ins, step-ups, factor changes, user administration, money actions)
// and the PHI access log (who read which patient's data, for what), the latter marked `kind: "phi-read"`.
// Clinic-scoped by the session only. A day is the clinic's day (its IANA zone), as every date a screen shows.
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { clinicDayBounds } from '../time/clinic-day';

export const LIST_LIMIT = 100;
/** The action name PHI access rows list under (they have a purpose, not an action, in their own table). */
export const PHI_READ_ACTION = 'phi.read';

export const AuditQuery = z.object({
  userId: z.string().trim().min(1).max(200).optional(),
  action: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9.-]+$/, { message: 'action is an audit action name such as users.unlock' })
    .optional(),
  day: z.iso.date({ message: 'day must be YYYY-MM-DD' }).optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditEntry = z.object({
  id: z.string(),
  /** audit: the audit log; phi-read: a read of a patient's protected data (the PHI access log). */
  kind: z.enum(['audit', 'phi-read']),
  at: z.iso.datetime(),
  action: z.string(),
  outcome: z.string(),
  userId: z.string().nullable(),
  /** The acting user's e-mail when they are (still) a user of this clinic. */
  userEmail: z.string().nullable(),
  correlationId: z.string(),
  /** Reasons and ids only (never PHI or secrets); for a PHI read: { patientId, purpose }. */
  detail: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditList = z.object({
  entries: z.array(AuditEntry),
  /** The action names this clinic's log holds, for a filter (phi.read included when any PHI read is logged). */
  actions: z.array(z.string()),
  /** The clinic's IANA time zone: `day` is read in it, and a screen shows times in it. */
  timeZone: z.string(),
});
export type AuditList = z.infer<typeof AuditList>;

export async function listAudit(
  deps: { db: Db; clock: Clock },
  input: AuditQuery & { clinicId: string },
): Promise<AuditList> {
  const { db } = deps;
  const clinic = await db.clinic.findUniqueOrThrow({ where: { id: input.clinicId }, select: { timeZone: true } });
  const day = input.day ? clinicDayBounds(input.day, clinic.timeZone) : undefined;
  const createdAt = day ? { gte: day.from, lt: day.to } : undefined;
  const wantsPhi = !input.action || input.action === PHI_READ_ACTION;
  const wantsAudit = !input.action || input.action !== PHI_READ_ACTION;
  const order = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

  const [auditRows, phiRows, auditActions, anyPhi] = await Promise.all([
    wantsAudit
      ? db.auditLog.findMany({
          where: { clinicId: input.clinicId, userId: input.userId, action: input.action, createdAt },
          orderBy: order,
          take: LIST_LIMIT,
        })
      : [],
    wantsPhi
      ? db.phiAccessLog.findMany({
          where: { clinicId: input.clinicId, userId: input.userId, createdAt },
          orderBy: order,
          take: LIST_LIMIT,
        })
      : [],
    db.auditLog.findMany({
      where: { clinicId: input.clinicId },
      distinct: ['action'],
      select: { action: true },
      orderBy: { action: 'asc' },
    }),
    db.phiAccessLog.findFirst({ where: { clinicId: input.clinicId }, select: { id: true } }),
  ]);

  const entries: AuditEntry[] = [
    ...auditRows.map((row) => ({
      id: row.id,
      kind: 'audit' as const,
      at: row.createdAt.toISOString(),
      action: row.action,
      outcome: row.outcome,
      userId: row.userId,
      userEmail: null,
      correlationId: row.correlationId,
      detail: row.detail ?? null,
    })),
    ...phiRows.map((row) => ({
      id: row.id,
      kind: 'phi-read' as const,
      at: row.createdAt.toISOString(),
      action: PHI_READ_ACTION,
      outcome: 'success',
      userId: row.userId,
      userEmail: null,
      correlationId: row.correlationId,
      detail: { patientId: row.patientId, purpose: row.purpose },
    })),
  ]
    .sort((a, b) => (a.at === b.at ? b.id.localeCompare(a.id) : b.at.localeCompare(a.at)))
    .slice(0, LIST_LIMIT);

  // E-mails of this clinic's users only: a row naming anyone else shows the bare id.
  const userIds = [...new Set(entries.map((e) => e.userId).filter((id): id is string => !!id))];
  const users = userIds.length
    ? await db.user.findMany({
        where: { id: { in: userIds }, clinicId: input.clinicId },
        select: { id: true, email: true },
      })
    : [];
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  for (const entry of entries) entry.userEmail = entry.userId ? (emailOf.get(entry.userId) ?? null) : null;

  const actions = auditActions.map((a) => a.action);
  if (anyPhi) actions.push(PHI_READ_ACTION);
  return { entries, actions: actions.sort(), timeZone: clinic.timeZone };
}
