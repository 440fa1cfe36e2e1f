// The second half of a claim send (the outbox, DECISIONS "Recurring work"): what the clearinghouse answered to an
// 837P already recorded as sent (a ClaimSend row in state `sending`) is recorded in one short transaction, and the
// claim moves on: 999 A/E → submitted (then the 277CA: accepted or rejected), 999 R → draft with the reason. It
// never sends anything. Shared by submit (right after the send) and finishInterruptedSends (after a crash), and
// exactly once between them: the transaction first moves the ClaimSend out of `sending`, conditionally.
// An answer that cannot be read is kept as received, the claim stays `sending` and the send waits for a person
// (DECISIONS "Security findings of 2026-11-28"): it is never sent again by itself.
import type { Deps } from '../deps';
import type { Prisma } from '../db';
import { recordAudit } from '../audit/record-audit';
import type { ClaimAcknowledgments, ClearinghouseMode } from '../clearinghouse/clearinghouse-transport';
import { read999, type Ack999 } from '../x12/read-999';
import { read277 } from '../x12/read-277';
import { X12ReadError } from '../x12/x12-read-error';
import { recordEvent } from '../events/record-event';
import { recordClaimEvent, transitionClaim } from './claim-states';
import { CLAIM_LINES } from './claim-view';
import { closeReplacedClaim } from './close-replaced-claim';
import { describe277Status } from './describe-277-status';
import { enqueueSandboxRemittance } from './sandbox-remittance';

/** The ClaimSend row's fields that recording its answer needs. */
export type RecordedSend = {
  id: string;
  clinicId: string;
  claimId: string;
  userId: string;
  orgId: string;
  correlationId: string;
  /** ST02 of the 837P, which the 999's AK2 names. */
  transactionControlNumber: string;
};

/**
 * `answered`: the answer is recorded and the claim moved on (or another caller recorded it first). `awaiting`:
 * the clearinghouse has the 837P and no 999 yet; the claim stays `sending`. `unreadable`: the answer could not be
 * read; it is kept, the claim stays `sending`, and the send waits for a person.
 */
export type AnswerOutcome = 'answered' | 'awaiting' | 'unreadable';

export const UNREADABLE_REASON =
  "Sent, but the clearinghouse's answer could not be read; it will not be sent again until a person decides";
export const AWAITING_REASON = "Sent; waiting for the clearinghouse's acknowledgment (999)";
export const UNCONFIRMED_REASON =
  'Sent, but the clearinghouse did not confirm receipt; its answer will be asked for, and the claim will not be ' +
  'sent again until a person decides';

/**
 * A send that may have reached the clearinghouse without a receipt (submitClaim resolved null): it stays `sending`,
 * receipt unconfirmed, so finishInterruptedSends asks for its answer and, with none, marks it for a person.
 */
export async function recordUnconfirmedSend(deps: Pick<Deps, 'db'>, send: RecordedSend): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.claimSend.updateMany({
      where: { id: send.id, state: 'sending' },
      data: { stateReason: UNCONFIRMED_REASON },
    });
    if (count === 1)
      await tx.claim.updateMany({
        where: { id: send.claimId, status: 'sending' },
        data: { statusReason: UNCONFIRMED_REASON },
      });
  });
}

export async function recordClaimAnswer(
  deps: Pick<Deps, 'db' | 'clock'> & { mode: ClearinghouseMode },
  send: RecordedSend,
  acks: ClaimAcknowledgments,
): Promise<AnswerOutcome> {
  const { db } = deps;
  const now = deps.clock();
  const { clinicId, claimId, correlationId } = send;

  if (acks.ack999 === null) {
    await db.$transaction(async (tx) => {
      const { count } = await tx.claimSend.updateMany({
        where: { id: send.id, state: 'sending' },
        data: { receiptConfirmed: true, stateReason: AWAITING_REASON },
      });
      if (count === 1)
        await tx.claim.updateMany({
          where: { id: claimId, status: 'sending' },
          data: { statusReason: AWAITING_REASON },
        });
    });
    return 'awaiting';
  }

  // Read before any transaction opens: parsing is pure, and a refusal must not hold a connection.
  let ack999: Ack999;
  try {
    ack999 = read999(acks.ack999);
  } catch (error) {
    await recordUnreadable(deps, send, acks.ack999, error);
    return 'unreadable';
  }
  let ack277ca: ReturnType<typeof read277> | null = null;
  try {
    ack277ca = acks.ack277ca === null ? null : read277(acks.ack277ca);
  } catch {
    // A 277CA we cannot read is no 277CA yet: the claim is transmitted once the 999 accepts it, and a status
    // refresh asks the payer again.
  }

  await db.$transaction(async (tx) => {
    const { count } = await tx.claimSend.updateMany({
      where: { id: send.id, state: 'sending' },
      data: { state: 'answered', receiptConfirmed: true, stateReason: null, finishedAt: now },
    });
    if (count === 0) return; // recorded by someone else (the request or the recovery job)
    const transmission = (kind: string, control: string, text: string) =>
      tx.claimTransmission.create({
        data: { clinicId, claimId, direction: 'in', kind, controlNumber: control, x12: text, correlationId, at: now },
      });
    await transmission('999', ack999.interchangeControlNumber, acks.ack999!);

    const setStatus = ack999.sets.find((set) => set.controlNumber === send.transactionControlNumber)?.status;
    const status = setStatus ?? ack999.groupStatus;
    const errors = ack999.sets.flatMap((set) => set.errors).map((e) => `${e.segmentId} ${e.position}: ${e.code}`);
    const detail999 = { acknowledgment: status, errors, controlNumber: ack999.interchangeControlNumber };
    if (status !== 'A' && status !== 'E') {
      await transitionClaim(tx, {
        clinicId,
        claimId,
        from: 'sending',
        to: 'draft',
        kind: '999',
        detail: detail999,
        correlationId,
        at: now,
        set: {
          statusReason: `Rejected by the clearinghouse (999 ${status})${errors.length ? `: ${errors.join('; ')}` : ''}`,
          // The key sent nothing that counts: a fixed draft may be sent again, under a new key.
          idempotencyKey: null,
        },
      });
      await audit(tx, send, { transmitted: false, acknowledgment: status });
      return;
    }

    await transitionClaim(tx, {
      clinicId,
      claimId,
      from: 'sending',
      to: 'submitted',
      kind: '999',
      detail: detail999,
      correlationId,
      at: now,
      set: {
        submittedAt: now,
        statusReason: status === 'E' ? `Accepted with errors (999 E): ${errors.join('; ')}` : null,
      },
    });

    const answer = ack277ca?.claims.find((c) => c.claimId === claimId) ?? ack277ca?.claims[0];
    if (ack277ca && answer) {
      await transmission('277CA', ack277ca.interchangeControlNumber, acks.ack277ca!);
      const detail = {
        category: answer.statusCategory,
        code: answer.statusCode,
        entity: answer.entityCode,
        words: describe277Status(answer),
        payerClaimId: answer.payerClaimId,
        controlNumber: ack277ca.interchangeControlNumber,
      };
      if (answer.accepted) {
        await transitionClaim(tx, {
          clinicId,
          claimId,
          from: 'submitted',
          to: 'accepted',
          kind: '277CA',
          detail,
          correlationId,
          at: now,
          // The payer's claim control number: REF*F8 of a later replacement or void.
          ...(answer.payerClaimId ? { set: { payerClaimId: answer.payerClaimId } } : {}),
        });
        await closeReplacedClaim(tx, { clinicId, claimId, correlationId, at: now });
        await recordEvent(tx, {
          clinicId,
          type: 'claim.accepted',
          objectId: claimId,
          data: { claimId, status: 'accepted' },
          correlationId,
          at: now,
        });
        // The sandbox payer's remittance arrives later as a real 835 (lib/claims/sandbox-remittance.ts).
        if (deps.mode === 'sandbox') await enqueueSandboxRemittance(tx, { clinicId, claimId, correlationId, now });
      } else {
        await transitionClaim(tx, {
          clinicId,
          claimId,
          from: 'submitted',
          to: 'rejected',
          kind: '277CA',
          detail,
          correlationId,
          at: now,
          set: { statusReason: `Rejected by the payer (277CA): ${describe277Status(answer)}` },
        });
        await recordEvent(tx, {
          clinicId,
          type: 'claim.rejected',
          objectId: claimId,
          data: { claimId, status: 'rejected', reasons: [detail.words] },
          errors: [{ code: `277CA:${answer.statusCategory}:${answer.statusCode}`, message: detail.words }],
          correlationId,
          at: now,
        });
      }
    }
    await audit(tx, send, { transmitted: true, acknowledgment: status });
  });
  return 'answered';
}

/** The claim as it is now, for the answer to the request. */
export function readSentClaim(db: Deps['db'], claimId: string) {
  return db.claim.findUniqueOrThrow({ where: { id: claimId }, include: CLAIM_LINES });
}

async function recordUnreadable(
  deps: Pick<Deps, 'db' | 'clock'>,
  send: RecordedSend,
  ack999: string,
  error: unknown,
): Promise<void> {
  const { clinicId, claimId, correlationId } = send;
  const now = deps.clock();
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.claimSend.updateMany({
      where: { id: send.id, state: 'sending' },
      data: { state: 'unreadable', receiptConfirmed: true, stateReason: UNREADABLE_REASON },
    });
    if (count === 0) return;
    // Kept exactly as received, beside the 837P, for the person who decides.
    await tx.claimTransmission.create({
      data: { clinicId, claimId, direction: 'in', kind: '999', controlNumber: '', x12: ack999, correlationId, at: now },
    });
    await tx.claim.updateMany({ where: { id: claimId, status: 'sending' }, data: { statusReason: UNREADABLE_REASON } });
    await recordClaimEvent(tx, {
      clinicId,
      claimId,
      kind: 'answer-unreadable',
      // Words only: the reader's message may quote the document, which may hold PHI.
      detail: { document: '999', reason: error instanceof X12ReadError ? 'not a readable 999' : 'unreadable' },
      correlationId,
      at: now,
    });
    await audit(tx, send, { transmitted: true, acknowledgment: 'unreadable' });
  });
}

async function audit(
  tx: Prisma.TransactionClient,
  send: RecordedSend,
  detail: { transmitted: boolean; acknowledgment: string },
): Promise<void> {
  await recordAudit(tx, {
    action: 'claims.submit',
    outcome: detail.transmitted ? 'success' : 'refused',
    correlationId: send.correlationId,
    userId: send.userId,
    orgId: send.orgId,
    clinicId: send.clinicId,
    detail: { claimId: send.claimId, acknowledgment: detail.acknowledgment },
  });
}
