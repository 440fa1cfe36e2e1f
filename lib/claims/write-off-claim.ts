// POST /api/claims/{id}/write-off (DECISIONS "Claim lifecycle"): the clinic stops collecting part or all of a claim's
// balance. One transaction holds the claim's row lock, so concurrent write-offs are served one at a time and never
// take more than the balance: the balanced ledger posting (Dr expenses:claim-write-offs, Cr claims-receivable, kind
// `claim.write_off`, reference `claim:<claimId>`), writtenOffCents, the timeline event or the move to `closed` when
// the balance reaches 0, and the audit row. A refusal writes nothing.
import { z } from 'zod';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import { credit, debit } from '../ledger/build-posting';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import { postLedgerTransaction } from '../ledger/post-ledger-transaction';
import { amountTooLargeMessage, MAX_AMOUNT_CENTS } from '../money/cents';
import { bookClaimCharge } from '../remittances/book-claim-charge';
import { claimBalanceCents } from './claim-balance';
import {
  describeStatus,
  recordClaimEvent,
  transitionClaim,
  TRANSMITTED_STATES,
  type ClaimStatus,
} from './claim-states';
import { ClaimView, CLAIM_LINES, toClaimViewOf } from './claim-view';

export const WRITE_OFF_KIND = 'claim.write_off';

export const WriteOffBody = z.object({
  // Zero and negative amounts are 422 by the ruling (0 < amount ≤ balanceCents), so the schema checks only the type.
  amountCents: z
    .number()
    .int('amountCents must be an integer number of cents')
    .max(MAX_AMOUNT_CENTS, amountTooLargeMessage('amountCents')),
  /** Why, in the biller's words: kept on the timeline and, when it closes the claim, as its statusReason. */
  reason: z.string().trim().min(1, 'reason is required').max(500),
});
export type WriteOffBody = z.infer<typeof WriteOffBody>;

export const ClaimWrittenOff = ClaimView.extend({ ledgerTransactionId: z.string() });

// A claim that was never transmitted has no receivable to write off; a closed one is settled for good.
const WRITABLE: readonly ClaimStatus[] = TRANSMITTED_STATES.filter((status) => status !== 'closed');

const LOCK_CLAIM = `SELECT "id" FROM "Claim" WHERE "id" = $1 AND "clinicId" = $2 FOR UPDATE`;

/**
 * @throws NOT_FOUND (404) for a claim not in the clinic; NOT_EXECUTABLE (409) for a draft, sending or closed claim;
 *   UNPROCESSABLE (422) unless 0 < amountCents ≤ balanceCents (read under the lock).
 */
export async function writeOffClaim(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: WriteOffBody & { claimId: string; clinicId: string; orgId: string; userId: string; correlationId: string },
): Promise<z.infer<typeof ClaimWrittenOff>> {
  const { db } = deps;
  const { clinicId, claimId, correlationId, amountCents } = input;
  const now = deps.clock();
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRawUnsafe<{ id: string }[]>(LOCK_CLAIM, claimId, clinicId);
    if (locked.length === 0) throw new AppError('NOT_FOUND', 'No such claim');
    const claim = await tx.claim.findUniqueOrThrow({ where: { id: claimId } });
    const from = claim.status as ClaimStatus;
    if (!WRITABLE.includes(from)) {
      throw new AppError(
        'NOT_EXECUTABLE',
        `Only a claim that was sent and is not closed can be written off; this one is ${describeStatus(from)}`,
      );
    }
    const balanceCents = claimBalanceCents(claim);
    if (amountCents <= 0 || BigInt(amountCents) > balanceCents) {
      throw new AppError(
        'UNPROCESSABLE',
        `amountCents must be more than 0 and at most the claim's balance, ${balanceCents > 0n ? balanceCents : 0n} cents`,
      );
    }
    // A claim without a remittance has not had its charge booked yet (book-claim-charge.ts): book it first, so the
    // write-off credits a receivable that holds it.
    await bookClaimCharge(tx, { claim, correlationId, now });
    const ledgerTransactionId = await postLedgerTransaction(tx, {
      clinicId,
      kind: WRITE_OFF_KIND,
      reference: `claim:${claimId}`,
      correlationId,
      postedAt: now,
      lines: [
        debit(LEDGER_ACCOUNTS.claimWriteOffs, BigInt(amountCents)),
        credit(LEDGER_ACCOUNTS.claimsReceivable, BigInt(amountCents)),
      ],
    });
    const writtenOffCents = claim.writtenOffCents + BigInt(amountCents);
    const detail = { amountCents, reason: input.reason, ledgerTransactionId, by: input.userId };
    if (BigInt(amountCents) === balanceCents) {
      // Under the lock the status is the one read, so the conditional move cannot miss.
      await transitionClaim(tx, {
        clinicId,
        claimId,
        from,
        to: 'closed',
        kind: 'write_off',
        detail,
        correlationId,
        set: { writtenOffCents, statusReason: `Written off: ${input.reason}` },
        at: now,
      });
    } else {
      await tx.claim.update({ where: { id: claimId }, data: { writtenOffCents } });
      await recordClaimEvent(tx, { clinicId, claimId, kind: 'write_off', detail, correlationId, at: now });
    }
    await recordAudit(tx, {
      action: 'claims.write_off',
      outcome: 'success',
      correlationId,
      userId: input.userId,
      orgId: input.orgId,
      clinicId,
      detail: { claimId, amountCents, ledgerTransactionId },
    });
    const updated = await tx.claim.findUniqueOrThrow({ where: { id: claimId }, include: CLAIM_LINES });
    return { ...(await toClaimViewOf(tx, clinicId, updated)), ledgerTransactionId };
  });
}
