// GET /api/claims/{id}: the claim view with its timeline (every ClaimEvent, oldest first: created, edits, the 999,
// the 277CA, 277 answers, payments, appeals) and its appeal cases.
import { z } from 'zod';
import type { Db } from '../db';
import { getClinicClaim } from './claim-records';
import { CLAIM_STATUSES, ClaimView, toClaimViewOf } from './claim-view';

export const ClaimEventView = z.object({
  kind: z.string(),
  at: z.string(),
  fromStatus: z.enum(CLAIM_STATUSES).nullable(),
  toStatus: z.enum(CLAIM_STATUSES).nullable(),
  /** Words and ids for the timeline (acknowledgment codes and their meaning, amounts in cents). */
  detail: z.unknown(),
});
export type ClaimEventView = z.infer<typeof ClaimEventView>;

export const AppealView = z.object({
  appealId: z.string(),
  reason: z.string(),
  attachments: z.array(z.object({ name: z.string(), url: z.string().optional() })),
  createdBy: z.string(),
  correlationId: z.string(),
  createdAt: z.string(),
});

/**
 * A claim linked to this one (DECISIONS "Claim lifecycle"), from this claim's side: it `replaces` or `voids` the
 * original, is `replaced_by` or `voided_by` a later claim, bills the secondary of its `primary`, or has a
 * `secondary` claim.
 */
export const RelatedClaimView = z.object({
  claimId: z.string(),
  relation: z.enum(['replaces', 'voids', 'replaced_by', 'voided_by', 'primary', 'secondary']),
  status: z.enum(CLAIM_STATUSES),
  createdAt: z.string(),
});
export type RelatedClaimView = z.infer<typeof RelatedClaimView>;

export const ClaimDetail = ClaimView.extend({
  timeline: z.array(ClaimEventView),
  appeals: z.array(AppealView),
  /** Originals, replacements, voids and secondaries linked to this claim, oldest first. */
  relatedClaims: z.array(RelatedClaimView),
});
export type ClaimDetail = z.infer<typeof ClaimDetail>;

type AppealRow = {
  id: string;
  reason: string;
  attachments: unknown;
  createdBy: string;
  correlationId: string;
  createdAt: Date;
};

export function toAppealView(row: AppealRow): z.infer<typeof AppealView> {
  return {
    appealId: row.id,
    reason: row.reason,
    attachments: Array.isArray(row.attachments) ? (row.attachments as z.infer<typeof AppealView>['attachments']) : [],
    createdBy: row.createdBy,
    correlationId: row.correlationId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** @throws NOT_FOUND (404) for a claim not in the clinic. */
export async function getClaim(deps: { db: Db }, input: { clinicId: string; claimId: string }): Promise<ClaimDetail> {
  const { db } = deps;
  const claim = await getClinicClaim(db, input.clinicId, input.claimId);
  const [view, events, appeals, related] = await Promise.all([
    toClaimViewOf(db, input.clinicId, claim),
    db.claimEvent.findMany({
      where: { claimId: claim.id, clinicId: input.clinicId },
      orderBy: [{ at: 'asc' }, { id: 'asc' }],
    }),
    db.claimAppeal.findMany({
      where: { claimId: claim.id, clinicId: input.clinicId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    }),
    db.claim.findMany({
      where: {
        clinicId: input.clinicId,
        OR: [
          { id: { in: [claim.replacesClaimId, claim.primaryClaimId].filter((id): id is string => id !== null) } },
          { replacesClaimId: claim.id },
          { primaryClaimId: claim.id },
        ],
      },
      select: { id: true, status: true, frequency: true, replacesClaimId: true, primaryClaimId: true, createdAt: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: 50,
    }),
  ]);
  return {
    ...view,
    timeline: events.map((event) => ({
      kind: event.kind,
      at: event.at.toISOString(),
      fromStatus: event.fromStatus as ClaimDetail['status'] | null,
      toStatus: event.toStatus as ClaimDetail['status'] | null,
      detail: event.detail ?? null,
    })),
    appeals: appeals.map(toAppealView),
    relatedClaims: related.map((other) => ({
      claimId: other.id,
      relation: relationOf(claim, other),
      status: other.status as RelatedClaimView['status'],
      createdAt: other.createdAt.toISOString(),
    })),
  };
}

type Linked = { id: string; frequency: string; replacesClaimId: string | null; primaryClaimId: string | null };

/** How `other` is linked to `claim`, from the claim's side. */
function relationOf(claim: Linked, other: Linked): RelatedClaimView['relation'] {
  if (other.id === claim.replacesClaimId) return claim.frequency === '8' ? 'voids' : 'replaces';
  if (other.replacesClaimId === claim.id) return other.frequency === '8' ? 'voided_by' : 'replaced_by';
  if (other.id === claim.primaryClaimId) return 'primary';
  return 'secondary';
}
