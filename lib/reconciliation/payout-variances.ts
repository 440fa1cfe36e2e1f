// Payout batches against what the bank said (DECISIONS "Money out"), as of one day, for the nightly run (of every
// clinic, or of the one a scheduled run names):
//   payout_unconfirmed:     released, and no confirmation 2 banking days after its effective entry date;
//   payout_amount_mismatch: confirmed for an amount other than the batch total (ledgerCents: the batch total,
//                           railCents: what the bank posted);
//   payout_returned:        an entry the receiving bank returned (reference: the entry's trace number).
// Each is keyed by its trace number, so re-running a day rewrites it; words for each are payoutVarianceNote's. A
// confirmation or a return is dated by the clinic's calendar, as the day it is reconciled against is.
import type { Prisma } from '../db';
import { addBankingDays } from '../payouts/banking-days';
import { clinicDateOf, DEFAULT_TIME_ZONE } from '../time/clinic-day';

export const PAYOUT_VARIANCE_KINDS = ['payout_unconfirmed', 'payout_amount_mismatch', 'payout_returned'] as const;
export const PAYOUT_CONFIRMATION_BANKING_DAYS = 2;

export type PayoutVariance = {
  clinicId: string;
  day: string;
  kind: (typeof PAYOUT_VARIANCE_KINDS)[number];
  reference: string;
  ledgerCents: bigint;
  railCents: bigint;
};

/** `timeZones`: each clinic's time zone, by id. */
export async function findPayoutVariances(
  tx: Prisma.TransactionClient,
  day: string,
  timeZones: ReadonlyMap<string, string>,
  clinicId?: string,
): Promise<PayoutVariance[]> {
  const dateOf = (instant: Date, clinicId: string) =>
    clinicDateOf(instant, timeZones.get(clinicId) ?? DEFAULT_TIME_ZONE);
  const found: PayoutVariance[] = [];
  const ofClinic = clinicId ? { clinicId } : {};
  const released = await tx.payoutBatch.findMany({ where: { status: 'released', ...ofClinic } });
  for (const batch of released) {
    const due = addBankingDays(batch.effectiveDate, PAYOUT_CONFIRMATION_BANKING_DAYS);
    if (due <= day)
      found.push({
        clinicId: batch.clinicId,
        day,
        kind: 'payout_unconfirmed',
        reference: batch.traceNumber,
        ledgerCents: batch.totalCents,
        railCents: 0n,
      });
  }
  const confirmed = await tx.payoutBatch.findMany({ where: { status: 'confirmed', ...ofClinic } });
  for (const batch of confirmed)
    if (batch.confirmedCents !== batch.totalCents)
      found.push({
        clinicId: batch.clinicId,
        day: dateOf(batch.confirmedAt!, batch.clinicId),
        kind: 'payout_amount_mismatch',
        reference: batch.traceNumber,
        ledgerCents: batch.totalCents,
        railCents: batch.confirmedCents ?? 0n,
      });
  const returned = await tx.payoutEntry.findMany({ where: { returnedAt: { not: null }, ...ofClinic } });
  for (const entry of returned)
    found.push({
      clinicId: entry.clinicId,
      day: dateOf(entry.returnedAt!, entry.clinicId),
      kind: 'payout_returned',
      reference: entry.traceNumber,
      ledgerCents: entry.amountCents,
      railCents: 0n,
    });
  return found.filter((v) => v.day <= day);
}

/** The variance in words, for the console. */
export function payoutVarianceNote(kind: string, ledgerCents: bigint, railCents: bigint): string | null {
  if (kind === 'payout_unconfirmed')
    return `The bank has not confirmed this payout batch of ${ledgerCents} cents ${PAYOUT_CONFIRMATION_BANKING_DAYS} banking days after its effective date`;
  if (kind === 'payout_amount_mismatch')
    return `The bank confirmed ${railCents} cents for a payout batch of ${ledgerCents} cents`;
  if (kind === 'payout_returned') return `The receiving bank returned this payout entry of ${ledgerCents} cents`;
  return null;
}
