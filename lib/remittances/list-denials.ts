// The denial work queue: the clinic's denied and partially paid claims, newest change first (at most 100), each
// with the codes of its latest remittance in words, what to do next, and where its appeal is filed.
import { z } from 'zod';
import type { Db } from '../db';
import { centsToNumber } from '../money/cents-to-number';
import { nextStepFor } from './next-step';
import { splitAdjustments } from './remittance-view';

const Cents = z.number().int();

export const DenialList = z.object({
  denials: z.array(
    z.object({
      claimId: z.string(),
      patientId: z.string(),
      /** "First Last" (billing has no patients:read); null only if the patient's record is gone. */
      patientName: z.string().nullable(),
      status: z.enum(['denied', 'partially_paid']),
      statusReason: z.string().nullable(),
      serviceDate: z.string(),
      payerId: z.string().nullable(),
      payerName: z.string().nullable(),
      totalChargeCents: Cents,
      paidCents: Cents,
      patientResponsibilityCents: Cents,
      adjustmentCents: Cents,
      /** The remittance that denied or cut it (null when the state came from elsewhere). */
      remittanceId: z.string().nullable(),
      /** CARCs outside the patient's share, with their words. */
      codes: z.array(
        z.object({
          group: z.string(),
          reason: z.string(),
          amountCents: Cents,
          description: z.string(),
          line: z.number().int().nullable(),
        }),
      ),
      remarks: z.array(z.object({ code: z.string(), description: z.string(), line: z.number().int().nullable() })),
      /** What a biller does next, in words. */
      nextStep: z.string(),
      /** The appeal: `POST` this path with `{ reason, attachments? }` (claims:write, step-up). */
      appeal: z.object({ method: z.literal('POST'), path: z.string() }),
      /** The claim's page in the staff app. */
      claimPath: z.string(),
      updatedAt: z.string(),
    }),
  ),
});

export async function listDenials(deps: { db: Db }, input: { clinicId: string }): Promise<z.infer<typeof DenialList>> {
  const claims = await deps.db.claim.findMany({
    where: { clinicId: input.clinicId, status: { in: ['denied', 'partially_paid'] } },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take: 100,
  });
  const ids = claims.map((c) => c.id);
  const posted = ids.length
    ? await deps.db.remittanceClaim.findMany({
        // Posted CLPs only: an unmatched one (kept while the claim was a draft) never described this claim.
        where: { clinicId: input.clinicId, claimId: { in: ids }, statusCode: { not: '22' }, posting: 'posted' },
        orderBy: [{ remittance: { createdAt: 'desc' } }, { position: 'desc' }],
        select: { claimId: true, remittanceId: true, adjustments: true },
      })
    : [];
  const patientIds = [...new Set(claims.map((c) => c.patientId))];
  const patients = patientIds.length
    ? await deps.db.patient.findMany({
        where: { clinicId: input.clinicId, id: { in: patientIds } },
        select: { id: true, firstName: true, lastName: true },
      })
    : [];
  const names = new Map(patients.map((p) => [p.id, `${p.firstName} ${p.lastName}`.trim()]));
  const latest = new Map<string, (typeof posted)[number]>();
  for (const row of posted) if (!latest.has(row.claimId)) latest.set(row.claimId, row);

  return {
    denials: claims.map((claim) => {
      const remittance = latest.get(claim.id);
      const { adjustments, remarks } = splitAdjustments(remittance?.adjustments);
      const codes = adjustments.filter((a) => a.group !== 'PR');
      return {
        claimId: claim.id,
        patientId: claim.patientId,
        patientName: names.get(claim.patientId) ?? null,
        status: claim.status as 'denied' | 'partially_paid',
        statusReason: claim.statusReason,
        serviceDate: claim.serviceDate,
        payerId: claim.payerId,
        payerName: claim.payerName,
        totalChargeCents: centsToNumber(claim.totalChargeCents),
        paidCents: centsToNumber(claim.paidCents),
        patientResponsibilityCents: centsToNumber(claim.patientResponsibilityCents),
        adjustmentCents: centsToNumber(claim.adjustmentCents),
        remittanceId: remittance?.remittanceId ?? null,
        codes,
        remarks,
        nextStep: nextStepFor(codes.map((c) => c.reason)),
        appeal: { method: 'POST' as const, path: `/api/claims/${encodeURIComponent(claim.id)}/appeal` },
        claimPath: `/claims/${encodeURIComponent(claim.id)}`,
        updatedAt: claim.updatedAt.toISOString(),
      };
    }),
  };
}
