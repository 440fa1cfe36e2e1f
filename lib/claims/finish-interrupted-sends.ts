// Finishes claim sends that a crash (or a clearinghouse slow to produce its 999) left `sending`: for each outbox row
// still `sending` after the grace period, it asks the clearinghouse for the answer to that exact submission (the
// PayloadID the 837P went under, recorded before the send, with the 837P's ISA13/BHT03 inside it) and records it
// as submit would have (recordClaimAnswer). It never sends a claim again: CAQH CORE gives no guarantee that a
// clearinghouse drops a second interchange with the same ISA13 (duplicate detection is a trading-partner option),
// so a send the clearinghouse has no answer for is marked for a person instead (docs/decisions.md). Runs from
// POST /api/jobs/claim-sends; the job engine schedules it.
import { z } from 'zod';
import type { Deps } from '../deps';
import { isAppError } from '../errors';
import type { ClearinghouseTransport } from '../clearinghouse/clearinghouse-transport';
import { recordClaimEvent } from './claim-states';
import { recordClaimAnswer } from './record-claim-answer';

/** Longer than a send's whole budget (three CORE exchanges of 15 s): a younger row may still be in flight. */
export const SEND_GRACE_MS = 120_000;
/** How long a send the clearinghouse confirmed receiving may wait for its 999 before a person looks at it. */
export const AWAIT_999_MS = 24 * 3_600_000;
const BATCH = 100;

export const NEEDS_PERSON_REASON =
  'The clearinghouse has no answer for this send; it will not be sent again until a person decides';

export const FinishedSends = z.object({
  /** Rows looked at: `sending` and older than the grace period. */
  checked: z.number().int(),
  /** Answers recorded; the claims moved on. */
  finished: z.number().int(),
  /** Received by the clearinghouse, its 999 not ready yet: asked again next run. */
  waiting: z.number().int(),
  /** Marked for a person: no answer to be had. */
  needsPerson: z.number().int(),
  /** An answer came that cannot be read: kept, marked for a person. */
  unreadable: z.number().int(),
  /** The clearinghouse could not be asked: tried again next run. */
  failed: z.number().int(),
  correlationId: z.string(),
});
export type FinishedSends = z.infer<typeof FinishedSends>;

export async function finishInterruptedSends(
  deps: Pick<Deps, 'db' | 'clock' | 'log'> & { clearinghouse: ClearinghouseTransport },
  input: { correlationId: string },
): Promise<FinishedSends> {
  const { db, clearinghouse } = deps;
  const now = deps.clock();
  const result = { checked: 0, finished: 0, waiting: 0, needsPerson: 0, unreadable: 0, failed: 0 };
  const rows = await db.claimSend.findMany({
    where: { state: 'sending', createdAt: { lt: new Date(now.getTime() - SEND_GRACE_MS) } },
    orderBy: { createdAt: 'asc' },
    take: BATCH,
  });
  for (const row of rows) {
    result.checked += 1;
    const sent = await db.claimTransmission.findUniqueOrThrow({ where: { id: row.transmissionId } });
    // ST02: the 837P's transaction set control number, which the 999's AK2 names.
    const transactionControlNumber = row.interchangeControlNumber.padStart(4, '0');
    let acks;
    try {
      acks = await clearinghouse.retrieveAcknowledgments(
        { submissionId: row.submissionId, x12: sent.x12 },
        { correlationId: row.correlationId },
      );
    } catch (error) {
      deps.log.warn(
        {
          correlationId: input.correlationId,
          claimSendId: row.id,
          code: isAppError(error) ? error.code : 'INTERNAL_ERROR',
        },
        'could not ask the clearinghouse for the answer to an interrupted claim send',
      );
      result.failed += 1;
      continue;
    }
    if (acks === null) {
      if (row.receiptConfirmed && now.getTime() - row.createdAt.getTime() < AWAIT_999_MS) {
        result.waiting += 1;
      } else {
        await markForPerson(deps, row);
        result.needsPerson += 1;
      }
      continue;
    }
    const outcome = await recordClaimAnswer(
      { db, clock: deps.clock, mode: clearinghouse.mode },
      { ...row, transactionControlNumber },
      acks,
    );
    if (outcome === 'answered') result.finished += 1;
    else if (outcome === 'awaiting') result.waiting += 1;
    else result.unreadable += 1;
  }
  deps.log.info({ correlationId: input.correlationId, ...result }, 'finished interrupted claim sends');
  return { ...result, correlationId: input.correlationId };
}

async function markForPerson(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: { id: string; clinicId: string; claimId: string; correlationId: string },
): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.claimSend.updateMany({
      where: { id: row.id, state: 'sending' },
      data: { state: 'needs_person', stateReason: NEEDS_PERSON_REASON },
    });
    if (count === 0) return;
    await tx.claim.updateMany({
      where: { id: row.claimId, status: 'sending' },
      data: { statusReason: NEEDS_PERSON_REASON },
    });
    await recordClaimEvent(tx, {
      clinicId: row.clinicId,
      claimId: row.claimId,
      kind: 'send-unconfirmed',
      detail: { claimSendId: row.id },
      correlationId: row.correlationId,
      at: deps.clock(),
    });
  });
}
