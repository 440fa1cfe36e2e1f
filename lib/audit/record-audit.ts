// The security audit log: who tried what, with which outcome, under which correlation id. Written in the same
// transaction as the change it records when there is one (pass the transaction client as db).
import type { Db, Prisma } from '../db';

export type AuditEntry = {
  action: string;
  outcome: 'success' | 'failure' | 'refused';
  correlationId: string;
  userId?: string | null;
  orgId?: string | null;
  clinicId?: string | null;
  /** Never PHI, secrets or codes: reasons and ids only. */
  detail?: Prisma.InputJsonValue;
};

type AuditWriter = Pick<Db, 'auditLog'> | Prisma.TransactionClient;

export async function recordAudit(db: AuditWriter, entry: AuditEntry): Promise<void> {
  await db.auditLog.create({ data: { ...entry, detail: entry.detail ?? undefined } });
}
