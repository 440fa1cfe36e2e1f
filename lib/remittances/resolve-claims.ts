// Which CLPs of an 835 may post (DECISIONS "Money in", ruled 2026-11-28): a CLP posts only to a claim of the clinic
// that was transmitted. The rule is an allow-list of the states a sent claim can be in, never "not draft": `draft`
// and any pre-send state (`sending`, or a state added later) never receive money. A `closed` claim counts as sent
// only when an 837P went out for it (a draft can be closed without ever being sent). Every other CLP is kept on the
// remittance as `unmatched` with its amounts and posts nowhere; an 835 with no CLP that can post is refused whole.
// Whether a sent claim can take a given CLP (a reversal, a payment to a closed claim, a later payer's) is decided
// per CLP while planning (plan-posting.ts).
// The refusal reads the same for another clinic's claim and for an id nobody has, so it tells nothing about other
// clinics' claims.
import type { Db, Prisma } from '../db';
import { AppError } from '../errors';
import { TRANSMITTED_STATES } from '../claims/claim-states';

export const UNKNOWN_CLAIM_REASON = 'No claim of this clinic has this id';

/** Why a CLP naming this claim cannot post, in words; null when it can. */
export function unmatchedReason(claim: { status: string; sent: boolean } | undefined): string | null {
  if (!claim) return UNKNOWN_CLAIM_REASON;
  if (!(TRANSMITTED_STATES as readonly string[]).includes(claim.status)) {
    return `The claim was never sent to the payer (it is ${claim.status.replaceAll('_', ' ')})`;
  }
  if (claim.status === 'closed' && !claim.sent) return 'The claim was closed without being sent to the payer';
  return null;
}

/**
 * Per claim id the 835s name: null when a CLP naming it may post, else why not. Read inside the posting's
 * transaction after the claims are locked, it is the rule that decides; read before, it is the up-front check.
 */
export async function matchClaims(
  db: Db | Prisma.TransactionClient,
  clinicId: string,
  ids: readonly string[],
): Promise<Map<string, string | null>> {
  const found = await db.claim.findMany({
    where: { clinicId, id: { in: [...ids] } },
    select: { id: true, status: true },
  });
  const closed = found.filter((claim) => claim.status === 'closed').map((claim) => claim.id);
  const sent = new Set(
    closed.length === 0
      ? []
      : (
          await db.claimTransmission.findMany({
            where: { clinicId, claimId: { in: closed }, direction: 'out', kind: '837P' },
            select: { claimId: true },
            distinct: ['claimId'],
          })
        ).map((t) => t.claimId),
  );
  const byId = new Map(found.map((claim) => [claim.id, { status: claim.status, sent: sent.has(claim.id) }]));
  return new Map(ids.map((id) => [id, unmatchedReason(byId.get(id))]));
}

const NAMED_IN_MESSAGE = 5;

/** The 422 for an 835 none of whose CLPs can post, naming (up to five of) its claim ids. */
export function nothingToPost(claimIds: readonly string[], reasons: Map<string, string | null>): AppError {
  const ids = [...new Set(claimIds)];
  const named = ids
    .slice(0, NAMED_IN_MESSAGE)
    .map((id) => JSON.stringify(id))
    .join(', ');
  const more = ids.length > NAMED_IN_MESSAGE ? ` and ${ids.length - NAMED_IN_MESSAGE} more` : '';
  const noneKnown = ids.every((id) => reasons.get(id) === UNKNOWN_CLAIM_REASON);
  return new AppError(
    'UNPROCESSABLE',
    noneKnown
      ? `The 835 names no claim of this clinic (CLP01 ${named}${more}); nothing was posted`
      : `The 835 names no claim of this clinic that was sent to the payer (CLP01 ${named}${more}); nothing was posted`,
  );
}

/**
 * Checks that each 835 of the interchange has at least one CLP that can post.
 * @throws UNPROCESSABLE (422) naming the claim ids of the first 835 that has none.
 */
export async function resolveClaims(
  db: Db | Prisma.TransactionClient,
  clinicId: string,
  remittances: readonly { claimIds: readonly string[] }[],
): Promise<void> {
  const ids = [...new Set(remittances.flatMap((remittance) => remittance.claimIds))];
  const reasons = await matchClaims(db, clinicId, ids);
  for (const { claimIds } of remittances) {
    if (!claimIds.some((id) => reasons.get(id) === null)) throw nothingToPost(claimIds, reasons);
  }
}
