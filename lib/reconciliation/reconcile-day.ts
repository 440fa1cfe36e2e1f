// Nightly reconciliation (SPEC.md, Money rule 3): for one day, three independent records of a clinic's FBO
// account's net movement, in integer cents, must agree. The day is always the clinic's own calendar day, from its
// midnight to the next in its time zone (23, 24 or 25 hours), whoever asks:
//   - the 02:00 schedule's run of one clinic (DECISIONS "Recurring work": "the clinic's previous day"), queued per
//     clinic and day (clinicReconcileKey), so a clinic east or west of Greenwich has each of its hours reconciled
//     once it is over;
//   - the operator's POST /api/jobs/reconcile: that date in every clinic at once, each in its own zone. Both write
//     the same (clinic, day) row, so they must mean the same hours by it: a UTC day here once overwrote, or erased,
//     what the clinic's own run had found.
// The three figures:
//   ledgerCents: the ledger's assets:fbo entries posted that day (debits in, credits out);
//   fboCents:    the FBO position as settlement operations moved it: minus the residual of every instruction
//                disbursed that day (the cash instructed out of the FBO);
//   railCents:   what the bank reported on the rail that day (banking.transaction.posted: credits in, debits out).
// Any disagreement is a `ledger_mismatch` ReconciliationVariance for (clinic, day). Re-running a day is idempotent:
// the row is rewritten with the new figures, and removed when the day now agrees (e.g. a late rail posting arrived).
// Payer deposits sit on the same rail: a credit reassociated with its 835 (lib/remittances/reassociate.ts) is in the
// ledger (Dr assets:fbo, dated when the bank posted it) and counts in the FBO position too, as a deposit whose ERA
// says the same amount. The ERA ↔ deposit variances are reassociation-variances.ts's, recorded in the same run.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import { centsToNumber } from '../money/cents-to-number';
import { serializableTransaction } from '../db/serializable-transaction';
import type { PgBoss } from 'pg-boss';
import type { JobHandler } from '../background/job-handler';
import { runQueuedJob } from '../background/run-queued-job';
import { findReassociationVariances, REASSOCIATION_KINDS } from './reassociation-variances';
import { findPayoutVariances, PAYOUT_VARIANCE_KINDS } from './payout-variances';
import { clinicDayBounds } from '../time/clinic-day';

export const ReconcileQuery = z.object({
  /** The calendar day to reconcile, in each clinic's time zone; defaults to yesterday as UTC counts it. */
  day: z.iso.date({ message: 'day must be YYYY-MM-DD' }).optional(),
});

const Cents = z.number().int();
export const ReconciliationRun = z.object({
  day: z.string(),
  clinicsChecked: z.number().int(),
  /** The day's ledger_mismatch variances. */
  variances: z.array(z.object({ clinicId: z.string(), ledgerCents: Cents, fboCents: Cents, railCents: Cents })),
  /** ERA ↔ deposit variances due as of the day, of every clinic (each keyed by its own date). */
  reassociation: z.array(
    z.object({
      clinicId: z.string(),
      kind: z.enum(REASSOCIATION_KINDS),
      reference: z.string(),
      day: z.string(),
      eraCents: Cents.nullable(),
      depositCents: Cents.nullable(),
    }),
  ),
  correlationId: z.string(),
});

const DAY_MS = 24 * 60 * 60 * 1000;
export const RECONCILE_QUEUE = 'reconcile';
type Run = z.infer<typeof ReconciliationRun>;
/** `clinicId`: the scheduled run of that clinic; absent, every clinic. Each clinic's `day` is its own calendar day. */
export type ReconcileJobData = { day: string; correlationId: string; clinicId?: string };

/** The singleton key of a clinic's scheduled run of one of its days (the operator's runs are keyed by the day). */
export const clinicReconcileKey = (clinicId: string, day: string) => `${clinicId}:${day}`;

// Each takes the window [from, to) and a clinic (null: every clinic).
const LEDGER_BY_CLINIC = `SELECT t."clinicId", SUM(e."amountCents")::bigint AS cents
  FROM "LedgerEntry" e JOIN "LedgerTransaction" t ON t."id" = e."transactionId"
  WHERE e."account" = $1 AND t."createdAt" >= $2 AND t."createdAt" < $3 AND ($4::text IS NULL OR t."clinicId" = $4)
  GROUP BY t."clinicId"`;
// Settlement disbursements out, plus payer deposits in that match their 835 (same trace, same amount).
const FBO_BY_CLINIC = `SELECT "clinicId", SUM(cents)::bigint AS cents FROM (
    SELECT "clinicId", -"residualCents" AS cents FROM "SettlementInstruction"
    WHERE "status" = 'DISBURSED' AND "disbursedAt" >= $1 AND "disbursedAt" < $2 AND ($3::text IS NULL OR "clinicId" = $3)
    UNION ALL
    SELECT p."clinicId", p."amountCents" AS cents FROM "RailPosting" p
    WHERE p."direction" = 'credit' AND p."postedAt" >= $1 AND p."postedAt" < $2 AND ($3::text IS NULL OR p."clinicId" = $3)
      AND (SELECT COUNT(*) FROM "Remittance" r WHERE r."clinicId" = p."clinicId" AND r."traceNumber" = p."railReference"
        AND r."paymentCents" > 0) = 1
      AND EXISTS (SELECT 1 FROM "Remittance" r WHERE r."clinicId" = p."clinicId" AND r."traceNumber" = p."railReference"
        AND r."paymentCents" = p."amountCents")
  ) AS movements GROUP BY "clinicId"`;
const RAIL_BY_CLINIC = `SELECT "clinicId", SUM(CASE WHEN "direction" = 'credit' THEN "amountCents" ELSE -"amountCents" END)::bigint AS cents
  FROM "RailPosting" WHERE "postedAt" >= $1 AND "postedAt" < $2 AND ($3::text IS NULL OR "clinicId" = $3)
  GROUP BY "clinicId"`;
const RECORD_VARIANCE = `INSERT INTO "ReconciliationVariance" ("id", "clinicId", "day", "kind", "reference", "ledgerCents", "fboCents", "railCents", "eraCents", "depositCents", "correlationId", "createdAt")
  VALUES ($1, $2, $3, $4, $5, $6::bigint, $7::bigint, $8::bigint, $9::bigint, $10::bigint, $11, $12)
  ON CONFLICT ("clinicId", "day", "kind", "reference") DO UPDATE SET "ledgerCents" = EXCLUDED."ledgerCents", "fboCents" = EXCLUDED."fboCents",
    "railCents" = EXCLUDED."railCents", "eraCents" = EXCLUDED."eraCents", "depositCents" = EXCLUDED."depositCents",
    "correlationId" = EXCLUDED."correlationId", "createdAt" = EXCLUDED."createdAt"`;

type Sum = { clinicId: string; cents: bigint };

/** The clinics' ids under each of their time zones. */
function clinicsByZone(clinics: readonly { id: string; timeZone: string }[]): Map<string, Set<string>> {
  const zones = new Map<string, Set<string>>();
  for (const { id, timeZone } of clinics) {
    const ids = zones.get(timeZone) ?? new Set<string>();
    ids.add(id);
    zones.set(timeZone, ids);
  }
  return zones;
}

/** @throws VALIDATION_FAILED (400) for a day that has not started yet; IN_PROGRESS when the run takes too long. */
export async function reconcileDay(
  deps: Pick<Deps, 'clock'> & { boss: PgBoss },
  input: z.infer<typeof ReconcileQuery> & { correlationId: string },
): Promise<Run> {
  const now = deps.clock();
  const day = input.day ?? new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
  if (new Date(`${day}T00:00:00.000Z`) > now) {
    throw new AppError('VALIDATION_FAILED', 'The day to reconcile has not started yet', {
      issues: [{ path: 'query.day', message: 'day must not be in the future' }],
    });
  }
  // One run per day at a time, on any instance: overlapping calls (a retried cron, two schedulers) share the run in
  // flight and answer with its result; a later call runs the day again (see run-queued-job.ts).
  const data: ReconcileJobData = { day, correlationId: input.correlationId };
  return runQueuedJob<Run>(deps.boss, { queue: RECONCILE_QUEUE, key: day, data });
}

/**
 * The reconcile queue: one queued-or-running run per key (policy exclusive): the operator's keyed by the day, a
 * clinic's scheduled run by clinic and day.
 */
export function reconcileHandler(deps: Pick<Deps, 'db' | 'clock'>): JobHandler<ReconcileJobData> {
  return {
    queue: RECONCILE_QUEUE,
    options: { policy: 'exclusive', retryLimit: 1, retryDelay: 1, expireInSeconds: 15 * 60 },
    pollingIntervalSeconds: 0.5,
    run: (job) => runReconciliation(deps, job.data),
  };
}

/**
 * Reconciles one day (the job's work), each clinic's own calendar day: of the clinic the job names, else of every
 * clinic. Re-running a day rewrites its findings; a clinic's run touches no other clinic's.
 */
export async function runReconciliation(deps: Pick<Deps, 'db' | 'clock'>, input: ReconcileJobData): Promise<Run> {
  const { db } = deps;
  const now = deps.clock();
  const { day } = input;
  const only = input.clinicId ?? null;
  // One snapshot for all three figures, so a disbursement committing mid-run cannot show in one and not the
  // others. The writes follow in the same transaction: a run records all its findings or none. A serialization
  // failure against a concurrent writer is retried (serializableTransaction), never answered as a 500.
  const variances = await serializableTransaction(
    db,
    async (tx) => {
      const clinics = await tx.clinic.findMany({
        where: only ? { id: only } : {},
        select: { id: true, timeZone: true },
        orderBy: { id: 'asc' },
      });
      // Every clinic's own calendar day: the clinics of one time zone share its window, so each figure is read
      // once per zone (of every clinic, or of the one named) and kept for that zone's clinics.
      const ledger = new Map<string, bigint>();
      const fbo = new Map<string, bigint>();
      const rail = new Map<string, bigint>();
      for (const [timeZone, ids] of clinicsByZone(clinics)) {
        const { from, to } = clinicDayBounds(day, timeZone);
        const keep = (into: Map<string, bigint>, rows: Sum[]) => {
          for (const row of rows) if (ids.has(row.clinicId)) into.set(row.clinicId, BigInt(row.cents));
        };
        keep(ledger, await tx.$queryRawUnsafe<Sum[]>(LEDGER_BY_CLINIC, LEDGER_ACCOUNTS.fbo, from, to, only));
        keep(fbo, await tx.$queryRawUnsafe<Sum[]>(FBO_BY_CLINIC, from, to, only));
        keep(rail, await tx.$queryRawUnsafe<Sum[]>(RAIL_BY_CLINIC, from, to, only));
      }
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
        where: {
          day,
          kind: 'ledger_mismatch',
          clinicId: { notIn: found.map((v) => v.clinicId), ...(only && { equals: only }) },
        },
      });
      const record = (v: {
        clinicId: string;
        day: string;
        kind: string;
        reference: string;
        ledgerCents?: bigint;
        fboCents?: bigint;
        railCents?: bigint;
        eraCents?: bigint | null;
        depositCents?: bigint | null;
      }) =>
        tx.$executeRawUnsafe(
          RECORD_VARIANCE,
          `var_${randomUUID().replaceAll('-', '')}`,
          v.clinicId,
          v.day,
          v.kind,
          v.reference,
          v.ledgerCents ?? 0n,
          v.fboCents ?? 0n,
          v.railCents ?? 0n,
          v.eraCents ?? null,
          v.depositCents ?? null,
          input.correlationId,
          now,
        );
      for (const v of found) await record({ ...v, day, kind: 'ledger_mismatch', reference: '' });

      // ERA ↔ deposit: rows whose pair has matched since are removed, whatever their day; the due ones recorded.
      const reassociation = await findReassociationVariances(tx, { day, ...(only && { clinicId: only }) });
      const open = new Set(reassociation.open.map((v) => `${v.clinicId} ${v.kind} ${v.reference}`));
      const recorded = await tx.reconciliationVariance.findMany({
        where: { kind: { in: [...REASSOCIATION_KINDS] }, ...(only && { clinicId: only }) },
        select: { id: true, clinicId: true, kind: true, reference: true },
      });
      const resolved = recorded.filter((v) => !open.has(`${v.clinicId} ${v.kind} ${v.reference}`));
      if (resolved.length > 0) {
        await tx.reconciliationVariance.deleteMany({ where: { id: { in: resolved.map((v) => v.id) } } });
      }
      for (const v of reassociation.due) await record(v);

      // Payout batches against the bank's confirmations and returns: rows no longer found (a late confirmation
      // arrived) are removed, the current ones recorded.
      const timeZones = new Map(clinics.map((clinic) => [clinic.id, clinic.timeZone]));
      const payouts = await findPayoutVariances(tx, day, timeZones, only ?? undefined);
      const payoutKeys = new Set(payouts.map((v) => `${v.clinicId} ${v.kind} ${v.reference}`));
      const payoutRows = await tx.reconciliationVariance.findMany({
        where: { kind: { in: [...PAYOUT_VARIANCE_KINDS] }, ...(only && { clinicId: only }) },
        select: { id: true, clinicId: true, kind: true, reference: true },
      });
      const settled = payoutRows.filter((v) => !payoutKeys.has(`${v.clinicId} ${v.kind} ${v.reference}`));
      if (settled.length > 0)
        await tx.reconciliationVariance.deleteMany({ where: { id: { in: settled.map((v) => v.id) } } });
      for (const v of payouts) await record(v);
      return { clinicsChecked: clinics.length, found, reassociation: reassociation.due };
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
    reassociation: variances.reassociation.map((v) => ({
      clinicId: v.clinicId,
      kind: v.kind,
      reference: v.reference,
      day: v.day,
      eraCents: v.eraCents === null ? null : centsToNumber(v.eraCents),
      depositCents: v.depositCents === null ? null : centsToNumber(v.depositCents),
    })),
    correlationId: input.correlationId,
  };
}
