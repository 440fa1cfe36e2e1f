// The claim state table and the one function that moves a claim along it. Nothing else writes Claim.status:
// submission (999, 277CA), remittance posting (lib/remittances), appeals and edits all call transitionClaim,
// which changes the status only from the state the caller saw (a conditional UPDATE) and writes the ClaimEvent
// in the same statement's transaction. Events without a state change (a 999 R, a 277 answer) go through
// recordClaimEvent.
import type { Db, Prisma } from '../db';
import { AppError } from '../errors';

export const CLAIM_STATUSES = [
  'draft',
  'sending',
  'submitted',
  'accepted',
  'rejected',
  'paid',
  'partially_paid',
  'denied',
  'appealed',
  'closed',
] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/**
 * "Transmitted": `submitted` or any later state (DECISIONS "Money in"), the only claims an 835 may pay. The list
 * above is in lifecycle order, so a state added before `submitted` (as `sending` was) never receives money.
 */
export const TRANSMITTED_STATES: readonly ClaimStatus[] = CLAIM_STATUSES.slice(CLAIM_STATUSES.indexOf('submitted'));

/**
 * Where each state may go. Why the less obvious rows exist:
 * - draft → sending → submitted: `sending` is the outbox state (DECISIONS "Recurring work"): the 837P is recorded
 *   and the claim is being sent, outside any transaction. Only a 999 A/E makes it submitted ("submitted" means
 *   transmitted, DECISIONS "Claims out"). sending → draft: a 999 R (the reason kept, to be fixed and sent again) or
 *   a send the clearinghouse never received. A send whose answer could not be read stays `sending` until a person
 *   decides: it is never sent again by itself.
 * - rejected → draft: a claim the payer's front end rejected (277CA) is fixed and resubmitted as the same claim.
 * - submitted → paid/partially_paid/denied: an 835 is itself proof of adjudication, also when the 277CA never came.
 * - paid/partially_paid/denied → accepted: a reversal (835 CLP02 22) undoes the posting; the corrected claim that
 *   follows posts from accepted again. partially_paid → paid and denied → paid/partially_paid: a later payment.
 * - denied/partially_paid → appealed, and an appeal is decided by the payer's next remittance.
 * - closed is terminal: written off, voided or settled for good.
 */
export const CLAIM_TRANSITIONS: Readonly<Record<ClaimStatus, readonly ClaimStatus[]>> = {
  draft: ['sending', 'closed'],
  sending: ['submitted', 'draft'],
  submitted: ['accepted', 'rejected', 'paid', 'partially_paid', 'denied', 'closed'],
  accepted: ['paid', 'partially_paid', 'denied', 'closed'],
  rejected: ['draft', 'closed'],
  paid: ['accepted', 'partially_paid', 'closed'],
  partially_paid: ['paid', 'accepted', 'appealed', 'closed'],
  denied: ['paid', 'partially_paid', 'accepted', 'appealed', 'closed'],
  appealed: ['paid', 'partially_paid', 'denied', 'closed'],
  closed: [],
};

export function canTransition(from: ClaimStatus, to: ClaimStatus): boolean {
  return CLAIM_TRANSITIONS[from]?.includes(to) ?? false;
}

export function isClaimStatus(value: string): value is ClaimStatus {
  return (CLAIM_STATUSES as readonly string[]).includes(value);
}

type ClaimWriter = Pick<Db, 'claim' | 'claimEvent'> | Prisma.TransactionClient;

export type ClaimTransition = {
  clinicId: string;
  claimId: string;
  /** The status the caller read: the update happens only if the claim still has it. */
  from: ClaimStatus;
  to: ClaimStatus;
  /** The event's kind: '999', '277CA', 'payment', 'reversal', 'appeal', 'reopened', ... */
  kind: string;
  /** Words and ids for the timeline; never PHI or raw X12. */
  detail?: Prisma.InputJsonValue;
  correlationId: string;
  /** Other columns written with the status, in the same UPDATE (statusReason, submittedAt, paidCents...). */
  set?: Omit<Prisma.ClaimUpdateManyMutationInput, 'status'>;
  /** When it happened, from the caller's clock (never the database's: a replayed or backdated story keeps its days). */
  at: Date;
};

/**
 * Moves one claim from `from` to `to` with a conditional UPDATE (status = from) and records the ClaimEvent. Pass a
 * transaction client when other writes must land with it.
 * @returns true when the claim moved; false when it no longer had status `from` (another request moved it first,
 *   or it is not this clinic's claim): nothing is written then.
 * @throws AppError NOT_EXECUTABLE (409) when the table has no such transition (nothing is written).
 */
export async function transitionClaim(db: ClaimWriter, transition: ClaimTransition): Promise<boolean> {
  const { clinicId, claimId, from, to } = transition;
  if (!canTransition(from, to)) {
    throw new AppError('NOT_EXECUTABLE', `A ${describeStatus(from)} claim cannot become ${describeStatus(to)}`);
  }
  const { count } = await db.claim.updateMany({
    where: { id: claimId, clinicId, status: from },
    data: { ...transition.set, status: to },
  });
  if (count === 0) return false;
  await recordClaimEvent(db, { ...transition, fromStatus: from, toStatus: to });
  return true;
}

export type ClaimEventInput = {
  clinicId: string;
  claimId: string;
  kind: string;
  detail?: Prisma.InputJsonValue;
  correlationId: string;
  fromStatus?: ClaimStatus | null;
  toStatus?: ClaimStatus | null;
  /** When it happened, from the caller's clock. */
  at: Date;
};

/** A timeline entry without a state change (created, edited, a 999 R, a 277 answer). */
export async function recordClaimEvent(db: ClaimWriter, event: ClaimEventInput): Promise<void> {
  await db.claimEvent.create({
    data: {
      clinicId: event.clinicId,
      claimId: event.claimId,
      kind: event.kind,
      fromStatus: event.fromStatus ?? null,
      toStatus: event.toStatus ?? null,
      detail: event.detail ?? undefined,
      correlationId: event.correlationId,
      at: event.at,
    },
  });
}

/** "partially paid" for partially_paid: the words a message shows. */
export function describeStatus(status: ClaimStatus): string {
  return status.replace('_', ' ');
}
