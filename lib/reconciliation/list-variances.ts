// The caller's clinic's reconciliation variances, newest day first, at most 100, optionally of one day: the
// day-level ledger/FBO/rail disagreements (kind ledger_mismatch) and the ERA ↔ deposit ones (era_without_deposit,
// deposit_without_era, amount_mismatch), each with its reference (the 835's TRN02 = the deposit's railReference).
import { z } from 'zod';
import type { Db } from '../db';
import { centsToNumber } from '../money/cents-to-number';

const Cents = z.number().int();

export const VarianceQuery = z.object({
  day: z.iso.date({ message: 'day must be YYYY-MM-DD' }).optional(),
});

export const VarianceList = z.object({
  variances: z.array(
    z.object({
      day: z.string(),
      kind: z.enum(['ledger_mismatch', 'era_without_deposit', 'deposit_without_era', 'amount_mismatch']),
      /** The 835's TRN02 / the deposit's railReference; "" for a day-level variance. */
      reference: z.string(),
      ledgerCents: Cents,
      fboCents: Cents,
      railCents: Cents,
      /** What the ERA says was paid (BPR02); null when there is no ERA or for a day-level variance. */
      eraCents: Cents.nullable(),
      /** What the bank credited under the reference; null when there is no deposit or for a day-level variance. */
      depositCents: Cents.nullable(),
      correlationId: z.string(),
      detectedAt: z.string(),
    }),
  ),
});

type Kind = z.infer<typeof VarianceList>['variances'][number]['kind'];

export async function listVariances(
  deps: { db: Db },
  input: { clinicId: string; day?: string },
): Promise<z.infer<typeof VarianceList>> {
  const rows = await deps.db.reconciliationVariance.findMany({
    where: { clinicId: input.clinicId, ...(input.day ? { day: input.day } : {}) },
    orderBy: [{ day: 'desc' }, { createdAt: 'desc' }, { id: 'asc' }],
    take: 100,
  });
  return {
    variances: rows.map((v) => ({
      day: v.day,
      kind: v.kind as Kind,
      reference: v.reference,
      ledgerCents: centsToNumber(v.ledgerCents),
      fboCents: centsToNumber(v.fboCents),
      railCents: centsToNumber(v.railCents),
      eraCents: v.eraCents === null ? null : centsToNumber(v.eraCents),
      depositCents: v.depositCents === null ? null : centsToNumber(v.depositCents),
      correlationId: v.correlationId,
      detectedAt: v.createdAt.toISOString(),
    })),
  };
}
