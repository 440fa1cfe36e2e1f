// The caller's clinic's reconciliation variances, newest day first, at most 100, optionally of one day: the
// day-level ledger/FBO/rail disagreements (kind ledger_mismatch), the ERA ↔ deposit ones (era_without_deposit,
// deposit_without_era, amount_mismatch), each with its reference (the 835's TRN02 = the deposit's railReference),
// and every CLP an 835 named that posted nowhere (unmatched_claim: a draft, or a claim the clinic does not have;
// DECISIONS "Money in"), read live from the remittances. Beside them, what is not a variance yet and must not read
// as reconciled (ruled 2026-11-28): an ERA whose deposit has not arrived ("waiting for the deposit") and a deposit
// whose ERA has not arrived, each with the day it becomes a variance.
import { z } from 'zod';
import type { Db } from '../db';
import { centsToNumber } from '../money/cents-to-number';
import { addBusinessDays } from './business-days';
import { findUnmatchedPairs, REASSOCIATION_WAIT_BUSINESS_DAYS } from './reassociation-variances';
import { PAYOUT_VARIANCE_KINDS, payoutVarianceNote } from './payout-variances';

const Cents = z.number().int();

export const VarianceQuery = z.object({
  day: z.iso.date({ message: 'day must be YYYY-MM-DD' }).optional(),
});

export const VARIANCE_KINDS = [
  'ledger_mismatch',
  'era_without_deposit',
  'deposit_without_era',
  'amount_mismatch',
  'unmatched_claim',
  ...PAYOUT_VARIANCE_KINDS,
] as const;

export const VarianceList = z.object({
  variances: z.array(
    z.object({
      day: z.string(),
      kind: z.enum(VARIANCE_KINDS),
      /** The 835's TRN02 / the deposit's railReference; "" for a day-level variance. */
      reference: z.string(),
      ledgerCents: Cents,
      fboCents: Cents,
      railCents: Cents,
      /**
       * What the ERA says was paid (BPR02; for unmatched_claim, the CLP's payment, CLP04); null when there is no ERA
       * or for a day-level variance.
       */
      eraCents: Cents.nullable(),
      /** What the bank credited under the reference; null when there is no deposit or for a day-level variance. */
      depositCents: Cents.nullable(),
      /** unmatched_claim: the CLP01 as the payer wrote it; else null. */
      claimId: z.string().nullable(),
      /** unmatched_claim: why it posted nowhere; payout_*: what the bank did or did not do; in words, else null. */
      note: z.string().nullable(),
      /** unmatched_claim: the remittance that holds the CLP; else null. */
      remittanceId: z.string().nullable(),
      correlationId: z.string(),
      detectedAt: z.string(),
    }),
  ),
  /** Not variances yet: an ERA or a deposit still waiting for its pair, newest day first. */
  waiting: z.array(
    z.object({
      /** deposit: an ERA waits for the bank's deposit; remittance: a deposit waits for its ERA. */
      waitingFor: z.enum(['deposit', 'remittance']),
      /** "Waiting for the deposit" | "Waiting for the remittance". */
      words: z.string(),
      /** The ERA's payment date (BPR16) or the deposit's day. */
      day: z.string(),
      reference: z.string(),
      eraCents: Cents.nullable(),
      depositCents: Cents.nullable(),
      /** The day it becomes a variance if its pair has not arrived (3 business days). */
      varianceFrom: z.string(),
    }),
  ),
});

type Variance = z.infer<typeof VarianceList>['variances'][number];
type Kind = Variance['kind'];

const LIMIT = 100;

export async function listVariances(
  deps: { db: Db },
  input: { clinicId: string; day?: string },
): Promise<z.infer<typeof VarianceList>> {
  const { db } = deps;
  const [rows, unmatched, pairs] = await Promise.all([
    db.reconciliationVariance.findMany({
      where: { clinicId: input.clinicId, ...(input.day ? { day: input.day } : {}) },
      orderBy: [{ day: 'desc' }, { createdAt: 'desc' }, { id: 'asc' }],
      take: LIMIT,
    }),
    db.remittanceClaim.findMany({
      where: {
        clinicId: input.clinicId,
        posting: 'unmatched',
        ...(input.day ? { remittance: { paymentDate: input.day } } : {}),
      },
      orderBy: [{ remittance: { paymentDate: 'desc' } }, { remittance: { createdAt: 'desc' } }, { position: 'asc' }],
      take: LIMIT,
      include: {
        remittance: {
          select: { id: true, traceNumber: true, paymentDate: true, correlationId: true, createdAt: true },
        },
      },
    }),
    findUnmatchedPairs(db, input.clinicId),
  ]);

  const recorded: Variance[] = rows.map((v) => ({
    day: v.day,
    kind: v.kind as Kind,
    reference: v.reference,
    ledgerCents: centsToNumber(v.ledgerCents),
    fboCents: centsToNumber(v.fboCents),
    railCents: centsToNumber(v.railCents),
    eraCents: v.eraCents === null ? null : centsToNumber(v.eraCents),
    depositCents: v.depositCents === null ? null : centsToNumber(v.depositCents),
    claimId: null,
    note: payoutVarianceNote(v.kind, v.ledgerCents, v.railCents),
    remittanceId: null,
    correlationId: v.correlationId,
    detectedAt: v.createdAt.toISOString(),
  }));
  const unposted: Variance[] = unmatched.map((clp) => ({
    day: clp.remittance.paymentDate,
    kind: 'unmatched_claim',
    reference: clp.remittance.traceNumber,
    ledgerCents: 0,
    fboCents: 0,
    railCents: 0,
    eraCents: centsToNumber(clp.paidCents),
    depositCents: null,
    claimId: clp.claimId,
    note: clp.unmatchedReason,
    remittanceId: clp.remittance.id,
    correlationId: clp.remittance.correlationId,
    detectedAt: clp.remittance.createdAt.toISOString(),
  }));
  const variances = [...recorded, ...unposted]
    .sort((a, b) => (a.day === b.day ? b.detectedAt.localeCompare(a.detectedAt) : b.day.localeCompare(a.day)))
    .slice(0, LIMIT);

  // An ERA or deposit without its pair that the nightly run has not reported (yet): waiting, not reconciled.
  const reported = new Set(rows.map((v) => `${v.kind} ${v.reference}`));
  const waiting = pairs
    .filter((v) => v.kind !== 'amount_mismatch' && !reported.has(`${v.kind} ${v.reference}`))
    .filter((v) => !input.day || v.day === input.day)
    .map((v) => {
      const waitingFor = v.kind === 'era_without_deposit' ? ('deposit' as const) : ('remittance' as const);
      return {
        waitingFor,
        words: waitingFor === 'deposit' ? 'Waiting for the deposit' : 'Waiting for the remittance',
        day: v.day,
        reference: v.reference,
        eraCents: v.eraCents === null ? null : centsToNumber(v.eraCents),
        depositCents: v.depositCents === null ? null : centsToNumber(v.depositCents),
        varianceFrom: addBusinessDays(v.day, REASSOCIATION_WAIT_BUSINESS_DAYS),
      };
    })
    .sort((a, b) => b.day.localeCompare(a.day) || a.reference.localeCompare(b.reference))
    .slice(0, LIMIT);
  return { variances, waiting };
}
