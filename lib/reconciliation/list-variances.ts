// The caller's clinic's reconciliation variances, newest day first, at most 100.
import { z } from 'zod';
import type { Db } from '../db';
import { centsToNumber } from '../money/cents-to-number';

const Cents = z.number().int();
export const VarianceList = z.object({
  variances: z.array(
    z.object({
      day: z.string(),
      ledgerCents: Cents,
      fboCents: Cents,
      railCents: Cents,
      correlationId: z.string(),
      detectedAt: z.string(),
    }),
  ),
});

export async function listVariances(
  deps: { db: Db },
  input: { clinicId: string },
): Promise<z.infer<typeof VarianceList>> {
  const rows = await deps.db.reconciliationVariance.findMany({
    where: { clinicId: input.clinicId },
    orderBy: [{ day: 'desc' }],
    take: 100,
  });
  return {
    variances: rows.map((v) => ({
      day: v.day,
      ledgerCents: centsToNumber(v.ledgerCents),
      fboCents: centsToNumber(v.fboCents),
      railCents: centsToNumber(v.railCents),
      correlationId: v.correlationId,
      detectedAt: v.createdAt.toISOString(),
    })),
  };
}
