// POST /api/claims/{id}/appeal: records an appeal case for a denied or partially paid claim and moves it to
// appealed (through the state table), with its audit row, in one transaction. The payer's next remittance decides
// it. Any other state is 409: there is nothing to appeal.
import { z } from 'zod';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { getClinicClaim } from './claim-records';
import { describeStatus, transitionClaim, type ClaimStatus } from './claim-states';
import { AppealView, toAppealView } from './get-claim';

export const AppealBody = z.object({
  /** Why the denial is wrong, in the biller's words (sent with the appeal letter). */
  reason: z.string().trim().min(1, 'reason is required').max(4000),
  /**
   * Supporting documents by name and, when stored elsewhere, a link: https only, since the claim screen renders it
   * as a link (no javascript:, data: or file:, and no cleartext http).
   */
  attachments: z
    .array(
      z.object({
        name: z.string().trim().min(1).max(200),
        url: z
          .url({ protocol: /^https$/, error: 'An attachment link must be an https:// URL' })
          .max(2000)
          .optional(),
      }),
    )
    .max(20)
    .optional(),
});
export type AppealBody = z.infer<typeof AppealBody>;

export const ClaimAppealed = AppealView.extend({ claimId: z.string(), status: z.literal('appealed') });

const APPEALABLE: readonly ClaimStatus[] = ['denied', 'partially_paid'];

/** @throws NOT_FOUND (404) for a claim not in the clinic; NOT_EXECUTABLE (409) unless denied or partially paid. */
export async function appealClaim(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: AppealBody & { claimId: string; clinicId: string; orgId: string; userId: string; correlationId: string },
): Promise<z.infer<typeof ClaimAppealed>> {
  const { db } = deps;
  const now = deps.clock();
  const { clinicId, claimId, correlationId } = input;
  const claim = await getClinicClaim(db, clinicId, claimId);
  const refuse = (status: string) =>
    new AppError(
      'NOT_EXECUTABLE',
      `Only a denied or partially paid claim can be appealed; this one is ${describeStatus(status as ClaimStatus)}`,
    );
  const from = claim.status as ClaimStatus;
  if (!APPEALABLE.includes(from)) throw refuse(claim.status);
  const appeal = await db.$transaction(async (tx) => {
    const created = await tx.claimAppeal.create({
      data: {
        clinicId,
        claimId,
        reason: input.reason,
        attachments: input.attachments ?? [],
        createdBy: input.userId,
        correlationId,
        createdAt: now,
      },
    });
    const moved = await transitionClaim(tx, {
      clinicId,
      claimId,
      from,
      to: 'appealed',
      kind: 'appeal',
      detail: { appealId: created.id, by: input.userId },
      correlationId,
      at: now,
    });
    if (!moved) throw refuse('appealed');
    await recordAudit(tx, {
      action: 'claims.appeal',
      outcome: 'success',
      correlationId,
      userId: input.userId,
      orgId: input.orgId,
      clinicId,
      detail: { claimId, appealId: created.id },
    });
    return created;
  });
  return { ...toAppealView(appeal), claimId, status: 'appealed' };
}
