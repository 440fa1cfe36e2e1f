// The sandbox demo's 90 days of history (issue #27, DECISIONS "Staff app, second round"), seeded once on the first
// start (DEMO_HISTORY=on, which `npm start` sets) so every screen and chart has something real to show. Only its own
// patients (pat_n_101…, pat_s_101…, no appointment today) and its own pools (pool_n_101, pool_s_101); the ruled demo
// records are not touched. Everything after the claim on the tenant goes through the product's own domain
// functions, each on a clock pinned to its day of the story: the eligibility check, the claim submitted through
// the sandbox clearinghouse (999/277CA), 14 days later the sandbox payer's 835 through the same ingest, the bank's
// deposits through the banking event's effect (all but one: the reconciliation variance), one appeal, signed
// settlement instructions, and the nightly reconciliation of yesterday.
import type { Clock } from '../clock';
import type { Db } from '../db';
import { DEMO_ORG_ID } from './demo-tenant';
import {
  HISTORY_CLINICS,
  historyPatients,
  historyVisits,
  type HistoryClinic,
  type HistoryVisit,
} from './demo-history-plan';
import { addDays } from '../dashboard/dashboard-period';
import { clinicInstant, clinicToday } from '../time/clinic-day';
import { sandboxPayer } from '../eligibility/sandbox-payer';
import { verifyEligibility } from '../eligibility/verify-eligibility';
import { VerifyEligibilityBody } from '../eligibility/verify-eligibility-body';
import { sandboxClearinghouse } from '../clearinghouse/sandbox-clearinghouse';
import { SubmitClaimBody } from '../claims/claim-body';
import { submitClaim } from '../claims/submit-claim';
import { SANDBOX_REMITTANCE_QUEUE, sendSandboxRemittance } from '../claims/sandbox-remittance';
import { requireBoss } from '../background/boss';
import { keyedJobId } from '../background/keyed-job-id';
import { appealClaim } from '../claims/appeal-claim';
import { bankingTransactionPosted } from '../webhooks/banking-transaction-posted';
import { createInstruction } from '../settlements/create-instruction';
import { signInstruction } from '../settlements/sign-instruction';
import { setPayoutAccount } from '../payouts/payout-account';
import { createBatch } from '../payouts/create-batch';
import { releaseBatch } from '../payouts/release-batch';
import type { Config } from '../config';
import { runReconciliation } from '../reconciliation/reconcile-day';

/** The sandbox payer "pays" two weeks after a claim is accepted. */
const DAYS_TO_PAY = 14;
/** The bank credits a payer's deposit the day after the 835's payment date. */
const DAYS_TO_DEPOSIT = 1;
const HISTORY_POOL_CENTS = 2_500_000n;
const CORRELATION = 'demo-history';

type SeedDeps = { db: Db; now: Date; config: Config };

/**
 * Seeds the history once: the first statement claims the Northside history pool with ON CONFLICT DO NOTHING, so of
 * several instances starting together one seeds and the others find it taken (as ensureDemoTenant does with its
 * organization row); a second start seeds nothing. Needs the demo tenant and the job engine's queues (a sandbox
 * submit queues the payer's 835 job, which finds the claim already paid by the seed and does nothing).
 * @returns whether this call seeded it.
 */
export async function seedDemoHistory(deps: SeedDeps): Promise<{ seeded: boolean; claims: number }> {
  const { db, now } = deps;
  const claimed = await db.$transaction(async (tx) => {
    const [north, south] = HISTORY_CLINICS;
    const taken =
      await tx.$executeRaw`INSERT INTO "SettlementPool" ("id", "clinicId", "availableCents", "status") VALUES (${north.poolId}, ${north.clinicId}, ${HISTORY_POOL_CENTS}, 'active') ON CONFLICT ("id") DO NOTHING`;
    if (taken === 0) return false;
    await tx.settlementPool.create({
      data: { id: south.poolId, clinicId: south.clinicId, availableCents: HISTORY_POOL_CENTS, status: 'active' },
    });
    await tx.patient.createMany({ data: HISTORY_CLINICS.flatMap(historyPatientRows) });
    return true;
  });
  if (!claimed) return { seeded: false, claims: 0 };

  const claimIds: string[] = [];
  for (const clinic of HISTORY_CLINICS) {
    const { timeZone } = await db.clinic.findUniqueOrThrow({ where: { id: clinic.clinicId } });
    const today = clinicToday(now, timeZone);
    const denied: string[] = [];
    for (const visit of historyVisits(clinic, today)) {
      const claim = await playVisit(deps, clinic, visit, { today, timeZone });
      claimIds.push(claim.claimId);
      if (claim.status === 'denied') denied.push(claim.claimId);
    }
    // One appeal: the oldest denial of Northside, argued as a biller would.
    if (clinic.prefix === 'n' && denied[0]) {
      await appealClaim(
        { db, clock: () => now },
        {
          ...actor(clinic, 'appeal'),
          claimId: denied[0],
          reason: 'Office visit was medically necessary: chart notes and the referral are attached.',
          attachments: [{ name: 'visit-notes.pdf' }, { name: 'referral.pdf' }],
        },
      );
    }
    await signHistoryInstruction(deps, clinic);
  }
  await withdrawQueuedRemittances(claimIds);
  for (const clinic of HISTORY_CLINICS) await payOutHistoryInstruction(deps, clinic);
  await postDeposits(deps);
  await runReconciliation(
    { db, clock: () => now },
    { day: addDays(now.toISOString().slice(0, 10), -1), correlationId: `${CORRELATION}-reconcile` },
  );
  return { seeded: true, claims: claimIds.length };
}

function historyPatientRows(clinic: HistoryClinic) {
  return historyPatients(clinic).map((p, i) => ({
    id: p.id,
    clinicId: p.clinicId,
    firstName: p.firstName,
    lastName: p.lastName,
    birthDate: p.birthDate,
    gender: i % 2 ? 'male' : 'female',
    address: { line: [`${(i + 1) * 7} Oak Avenue`], city: 'Springfield', state: 'IL', postalCode: '62701' },
    coverageMemberId: p.memberId,
    coveragePayerId: '60054',
    coveragePayerName: 'Aetna',
  }));
}

const actor = (clinic: HistoryClinic, step: string) => ({
  clinicId: clinic.clinicId,
  orgId: DEMO_ORG_ID,
  userId: clinic.userId,
  correlationId: `${CORRELATION}-${step}`,
});

/**
 * One visit's story on its own days: checked and submitted the morning after the visit, then paid or denied by the
 * sandbox payer's 835 two weeks later (unless that day is still to come or the payer is slow).
 */
async function playVisit(
  deps: SeedDeps,
  clinic: HistoryClinic,
  visit: HistoryVisit,
  { today, timeZone }: { today: string; timeZone: string },
) {
  const { db } = deps;
  const serviceDate = addDays(today, -visit.daysAgo);
  const submittedAt = clinicInstant(addDays(serviceDate, 1), '09:00', timeZone);
  const clock: Clock = () => submittedAt;
  const { patient } = visit;
  const clinicRow = await db.clinic.findUniqueOrThrow({ where: { id: clinic.clinicId } });
  const ids = actor(clinic, `${patient.id}-${serviceDate}`);
  await verifyEligibility(
    { db, clock, payer: sandboxPayer(clock), config: { eligibilityCore: undefined } },
    { ...ids, clinicTimeZone: timeZone },
    VerifyEligibilityBody.parse({
      patientId: patient.id,
      firstName: patient.firstName,
      lastName: patient.lastName,
      dob: patient.birthDate,
      memberId: patient.memberId,
      payerName: 'Aetna',
      payerId: '60054',
      npi: clinicRow.billingNpi,
      dos: serviceDate,
    }),
  );
  const body = SubmitClaimBody.parse({
    patientId: patient.id,
    serviceDate,
    diagnoses: visit.diagnoses,
    lines: visit.lines,
    totalCharge: (visit.lines.reduce((sum, line) => sum + line.chargeCents, 0) / 100).toFixed(2),
  });
  const claim = await submitClaim(
    { db, clock, clearinghouse: sandboxClearinghouse({ db, clock }) },
    { ...body, ...ids },
  );
  const paidAt = clinicInstant(addDays(serviceDate, 1 + DAYS_TO_PAY), '07:00', timeZone);
  if (claim.status !== 'accepted' || visit.payerSlow || paidAt >= deps.now) return claim;
  await sendSandboxRemittance({ db, clock: () => paidAt }, { ...ids, claimId: claim.claimId });
  const { status } = await db.claim.findUniqueOrThrow({ where: { id: claim.claimId }, select: { status: true } });
  return { claimId: claim.claimId, status };
}

/**
 * Each sandbox submit queued the payer's 835 for a few seconds later (lib/claims/sandbox-remittance.ts). The
 * history has already decided every one on its own day: posted, or not yet answered (a slow payer, a claim too
 * recent to be paid), which the job would otherwise pay today. Its queued jobs are removed before any is worked.
 */
async function withdrawQueuedRemittances(claimIds: string[]) {
  const boss = await requireBoss();
  const ids = claimIds.map((claimId) => keyedJobId(SANDBOX_REMITTANCE_QUEUE, claimId));
  await boss.deleteJob(SANDBOX_REMITTANCE_QUEUE, ids);
}

/**
 * The bank's credit for each paid 835 of the history, the day after its payment date, through the banking event's
 * effect (which reassociates it with its 835), except the latest 835 paid at least a week ago: its deposit never
 * came, the variance reconciliation reports.
 */
async function postDeposits(deps: SeedDeps) {
  const { db, now } = deps;
  const remittances = await db.remittance.findMany({
    where: { clinicId: { in: HISTORY_CLINICS.map((c) => c.clinicId) }, source: 'sandbox', paymentCents: { gt: 0n } },
    select: { clinicId: true, traceNumber: true, paymentCents: true, paymentDate: true },
    orderBy: [{ paymentDate: 'asc' }, { traceNumber: 'asc' }],
  });
  const weekAgo = addDays(now.toISOString().slice(0, 10), -7);
  const missing = remittances.filter((r) => r.clinicId === 'clinic_north' && r.paymentDate <= weekAgo).at(-1);
  for (const r of remittances) {
    if (r === missing) continue;
    const postedAt = new Date(`${addDays(r.paymentDate, DAYS_TO_DEPOSIT)}T15:00:00.000Z`);
    if (postedAt >= now) continue;
    const correlationId = `${CORRELATION}-deposit-${r.traceNumber}`;
    await db.$transaction((tx) =>
      bankingTransactionPosted.apply(tx, {
        eventId: `evt_demo_deposit_${r.traceNumber}`,
        type: 'banking.transaction.posted',
        clinicId: r.clinicId,
        createdAt: postedAt.toISOString(),
        deliveryId: correlationId,
        correlationId,
        now: postedAt,
        data: {
          transactionId: `txn_demo_${r.traceNumber}`,
          amountCents: Number(r.paymentCents),
          direction: 'credit',
          postedAt: postedAt.toISOString(),
          railReference: r.traceNumber,
        },
      }),
    );
  }
}

/**
 * The clinic's payout account and its first payouts, as an operator and the bank would do them (DECISIONS "Money
 * out"): the account set, its prenote batch released and confirmed by the bank (verified), then a NACHA batch of
 * the signed instruction released and confirmed, so the instruction is DISBURSED and the console shows the file.
 * Demo bank details: the Federal Reserve's published test routing number 011000015.
 */
async function payOutHistoryInstruction(deps: SeedDeps, clinic: HistoryClinic) {
  const payoutDeps = { db: deps.db, config: deps.config, clock: (() => deps.now) as Clock };
  const { timeZone } = await deps.db.clinic.findUniqueOrThrow({ where: { id: clinic.clinicId } });
  const ids = { ...actor(clinic, 'payout'), clinicTimeZone: timeZone };
  await setPayoutAccount(payoutDeps, ids, {
    routingNumber: '011000015',
    accountNumber: clinic.prefix === 'n' ? '4000123456' : '4000654321',
    accountType: 'checking',
    holderName: clinic.prefix === 'n' ? 'Northside Clinic' : 'Southside Clinic',
  });
  const signed = await deps.db.settlementInstruction.findMany({
    where: { clinicId: clinic.clinicId, poolId: clinic.poolId, status: 'SIGNED' },
    select: { id: true },
  });
  for (const instructionIds of [[], signed.map((i) => i.id)]) {
    const batch = await createBatch(payoutDeps, ids, { instructionIds });
    await releaseBatch(payoutDeps, ids, batch.batchId);
    const correlationId = `${CORRELATION}-payout-${batch.batchId}`;
    const postedAt = deps.now.toISOString();
    await deps.db.$transaction((tx) =>
      bankingTransactionPosted.apply(tx, {
        eventId: `evt_demo_payout_${batch.batchId}`,
        type: 'banking.transaction.posted',
        clinicId: clinic.clinicId,
        createdAt: postedAt,
        deliveryId: correlationId,
        correlationId,
        now: deps.now,
        data: {
          transactionId: `txn_demo_${batch.batchId}`,
          amountCents: batch.totalCents,
          direction: 'debit',
          postedAt,
          railReference: batch.traceNumber,
        },
      }),
    );
  }
}

/** A signed settlement instruction on the clinic's history pool, waiting to be paid out. */
async function signHistoryInstruction(deps: SeedDeps, clinic: HistoryClinic) {
  const clock: Clock = () => deps.now;
  const ids = actor(clinic, 'settlement');
  const instruction = await createInstruction(
    { db: deps.db, clock },
    { ...ids, poolId: clinic.poolId, advanceAmountCents: 180_000, feeBps: 150, reserveBps: 1_000 },
  );
  await signInstruction({ db: deps.db, clock }, { ...ids, instructionId: instruction.instructionId });
}
