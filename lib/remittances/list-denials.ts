// The denial work queue: the clinic's denied and partially paid claims, newest change first (at most 100), each
// with the codes of its latest remittance in words, its balance, what to do next (next-action.ts) and where its
// appeal is filed; filtered by next action, with how many claims each action has across the whole queue.
import { z } from 'zod';
import type { Db } from '../db';
import { centsToNumber } from '../money/cents-to-number';
import { claimBalanceCents } from '../claims/claim-balance';
import { claimNextAction } from '../claims/claim-next-action';
import { findLatestRemittances } from '../claims/latest-remittances';
import { claimsWithSecondaryToBill } from '../claims/claims-with-secondary-to-bill';
import { readPatientNames } from '../patients/patient-names';
import { NEXT_ACTIONS } from './next-action';
import { splitAdjustments } from './remittance-view';

const Cents = z.number().int();

export const ListDenialsQuery = z.object({
  /** Only the claims whose next action is this one. */
  nextAction: z.enum(NEXT_ACTIONS).optional(),
});

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
      writtenOffCents: Cents,
      /** Charge − paid − adjustments − written off − moved to the patient. */
      balanceCents: Cents,
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
      /** What a biller does next, by the first rule that matches (DECISIONS "Claim lifecycle"). */
      nextAction: z.enum(NEXT_ACTIONS),
      /** Why, in words, with the code acted on. */
      nextActionReason: z.string(),
      /** The appeal: `POST` this path with `{ reason, attachments? }` (claims:write, step-up). */
      appeal: z.object({ method: z.literal('POST'), path: z.string() }),
      /** The claim's page in the staff app. */
      claimPath: z.string(),
      updatedAt: z.string(),
    }),
  ),
  /** Claims per next action in the whole queue, whatever the filter (every action present, 0 when none). */
  counts: z.record(z.enum(NEXT_ACTIONS), Cents),
});

export async function listDenials(
  deps: { db: Db },
  input: { clinicId: string; nextAction?: z.infer<typeof ListDenialsQuery>['nextAction'] },
): Promise<z.infer<typeof DenialList>> {
  const { db } = deps;
  const { clinicId } = input;
  // The whole queue: the counts and the filter need every claim's next action, not only the first 100.
  const claims = await db.claim.findMany({
    where: { clinicId, status: { in: ['denied', 'partially_paid'] } },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
  });
  const latest = await findLatestRemittances(
    db,
    clinicId,
    claims.map((c) => c.id),
  );
  const secondaryToBill = await claimsWithSecondaryToBill(db, clinicId, claims);
  const worked = claims.map((claim) => ({
    claim,
    advice: claimNextAction(claim, latest.get(claim.id)?.adjustments, secondaryToBill.has(claim.id))!,
  }));
  const counts = Object.fromEntries(NEXT_ACTIONS.map((action) => [action, 0])) as Record<
    (typeof NEXT_ACTIONS)[number],
    number
  >;
  for (const { advice } of worked) counts[advice.nextAction]++;
  const shown = worked
    .filter(({ advice }) => !input.nextAction || advice.nextAction === input.nextAction)
    .slice(0, 100);

  const patients = await readPatientNames(
    db,
    clinicId,
    shown.map(({ claim }) => claim.patientId),
  );

  return {
    denials: shown.map(({ claim, advice }) => {
      const remittance = latest.get(claim.id);
      const { adjustments, remarks } = splitAdjustments(remittance?.adjustments);
      return {
        claimId: claim.id,
        patientId: claim.patientId,
        patientName: patients.get(claim.patientId)?.name ?? null,
        status: claim.status as 'denied' | 'partially_paid',
        statusReason: claim.statusReason,
        serviceDate: claim.serviceDate,
        payerId: claim.payerId,
        payerName: claim.payerName,
        totalChargeCents: centsToNumber(claim.totalChargeCents),
        paidCents: centsToNumber(claim.paidCents),
        patientResponsibilityCents: centsToNumber(claim.patientResponsibilityCents),
        adjustmentCents: centsToNumber(claim.adjustmentCents),
        writtenOffCents: centsToNumber(claim.writtenOffCents),
        balanceCents: centsToNumber(claimBalanceCents(claim)),
        remittanceId: remittance?.remittanceId ?? null,
        codes: adjustments.filter((a) => a.group !== 'PR'),
        remarks,
        ...advice,
        appeal: { method: 'POST' as const, path: `/api/claims/${encodeURIComponent(claim.id)}/appeal` },
        claimPath: `/claims/${encodeURIComponent(claim.id)}`,
        updatedAt: claim.updatedAt.toISOString(),
      };
    }),
    counts,
  };
}
