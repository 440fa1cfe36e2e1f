// Nightly reconciliation (SPEC.md, Money rule 3): for one UTC day and every clinic, three independent records
// of the FBO account's net movement, in integer cents, must agree:
//   ledgerCents: the ledger's assets:fbo entries posted that day (debits in, credits out);
//   fboCents:    the FBO position as settlement operations moved it: minus the residual of every instruction
//                disbursed that day (the cash instructed out of the FBO);
//   railCents:   what the bank reported on the rail that day (banking.transaction.posted: credits in, debits out).
// Any disagreement is a ReconciliationVariance for (clinic, day). Re-running a day is idempotent: the row is
// rewritten with the new figures, and removed when the day now agrees (e.g. a late rail posting arrived).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import { centsToNumber } from '../money/cents-to-number';
import { serializableTransaction } from '../db/serializable-transaction';
import { runKeyedJob } from '../jobs/run-keyed-job';

export const ReconcileQuery = z.object({
  /** The UTC day to reconcile; defaults to yesterday (the nightly run). */
  day: z.iso.date({ message: 'day must be YYYY-MM-DD' }).optional(),
});

const Cents = z.number().int();
export const ReconciliationRun = z.object({
  day: z.string(),
  clinicsChecked: z.number().int(),
  variances: z.array(z.object({ clinicId: z.string(), ledgerCents: Cents, fboCents: Cents, railCents: Cents })),
  correlationId: z.string(),
});

const DAY_MS = 24 * 60 * 60 * 1000;
export const RECONCILE_QUEUE = 'reconcile';
/** Renewed by the run's heartbeat while it lives; a run whose instance died is taken over this long after. */
const RECONCILE_LEASE_MS = 30_000;

const LEDGER_BY_CLINIC = `SELECT t."clinicId", SUM(e."amountCents")::bigint AS cents
  FROM "LedgerEntry" e JOIN "LedgerTransaction" t ON t."id" = e."transactionId"
  WHERE e."account" = $1 AND t."createdAt" >= $2 AND t."createdAt" < $3 GROUP BY t."clinicId"`;
const FBO_BY_CLINIC = `SELECT "clinicId", (-SUM("residualCents"))::bigint AS cents FROM "SettlementInstruction"
  WHERE "status" = 'DISBURSED' AND "disbursedAt" >= $1 AND "disbursedAt" < $2 GROUP BY "clinicId"`;
const RAIL_BY_CLINIC = `SELECT "clinicId", SUM(CASE WHEN "direction" = 'credit' THEN "amountCents" ELSE -"amountCents" END)::bigint AS cents
  FROM "RailPosting" WHERE "postedAt" >= $1 AND "postedAt" < $2 GROUP BY "clinicId"`;
const RECORD_VARIANCE = `INSERT INTO "ReconciliationVariance" ("id", "clinicId", "day", "ledgerCents", "fboCents", "railCents", "correlationId", "createdAt")
  VALUES ($1, $2, $3, $4::bigint, $5::bigint, $6::bigint, $7, $8)
  ON CONFLICT ("clinicId", "day") DO UPDATE SET "ledgerCents" = EXCLUDED."ledgerCents", "fboCents" = EXCLUDED."fboCents",
    "railCents" = EXCLUDED."railCents", "correlationId" = EXCLUDED."correlationId", "createdAt" = EXCLUDED."createdAt"`;

type Sum = { clinicId: string; cents: bigint };
const byClinic = (rows: Sum[]) => new Map(rows.map((r) => [r.clinicId, BigInt(r.cents)]));

/** @throws VALIDATION_FAILED (400) for a day that has not started yet. */
export async function reconcileDay(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: z.infer<typeof ReconcileQuery> & { correlationId: string },
): Promise<z.infer<typeof ReconciliationRun>> {
  const { db } = deps;
  const now = deps.clock();
  const day = input.day ?? new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
  const from = new Date(`${day}T00:00:00.000Z`);
  const to = new Date(from.getTime() + DAY_MS);
  if (from > now) {
    throw new AppError('VALIDATION_FAILED', 'The day to reconcile has not started yet', {
      issues: [{ path: 'query.day', message: 'day must not be in the future' }],
    });
  }

  // One run per day at a time, on any instance: overlapping calls (a retried cron, two schedulers) wait for the
  // run in flight and answer with its result; a later call runs the day again (see run-keyed-job.ts).
  return runKeyedJob(
    deps,
    { queue: RECONCILE_QUEUE, key: day, leaseMs: RECONCILE_LEASE_MS, correlationId: input.correlationId },
    async () => {
      // One snapshot for all three figures, so a disbursement committing mid-run cannot show in one and not the
      // others. The writes follow in the same transaction: a run records all its findings or none. A serialization
      // failure against a concurrent writer is retried (serializableTransaction), never answered as a 500.
      const variances = await serializableTransaction(
        db,
        async (tx) => {
          const clinics = await tx.clinic.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
          const ledger = byClinic(await tx.$queryRawUnsafe<Sum[]>(LEDGER_BY_CLINIC, LEDGER_ACCOUNTS.fbo, from, to));
          const fbo = byClinic(await tx.$queryRawUnsafe<Sum[]>(FBO_BY_CLINIC, from, to));
          const rail = byClinic(await tx.$queryRawUnsafe<Sum[]>(RAIL_BY_CLINIC, from, to));
          const found = clinics
            .map(({ id: clinicId }) => ({
              clinicId,
              ledgerCents: ledger.get(clinicId) ?? 0n,
              fboCents: fbo.get(clinicId) ?? 0n,
              railCents: rail.get(clinicId) ?? 0n,
            }))
            .filter((v) => !(v.ledgerCents === v.fboCents && v.fboCents === v.railCents));
          // A day that agrees now (e.g. a late rail posting arrived) keeps no variance from an earlier run.
          await tx.reconciliationVariance.deleteMany({
            where: { day, clinicId: { notIn: found.map((v) => v.clinicId) } },
          });
          for (const v of found) {
            await tx.$executeRawUnsafe(
              RECORD_VARIANCE,
              `var_${randomUUID().replaceAll('-', '')}`,
              v.clinicId,
              day,
              v.ledgerCents,
              v.fboCents,
              v.railCents,
              input.correlationId,
              now,
            );
          }
          return { clinicsChecked: clinics.length, found };
        },
        { isolationLevel: 'RepeatableRead', maxWait: 15_000, timeout: 60_000 },
      );

      return {
        day,
        clinicsChecked: variances.clinicsChecked,
        variances: variances.found.map((v) => ({
          clinicId: v.clinicId,
          ledgerCents: centsToNumber(v.ledgerCents),
          fboCents: centsToNumber(v.fboCents),
          railCents: centsToNumber(v.railCents),
        })),
        correlationId: input.correlationId,
      };
    },
  );
}
