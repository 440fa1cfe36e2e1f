// Releasing a batch (step-up): the moment the money is committed. One conditional update moves the batch from
// `created` to `released`, so of any number of racing releases exactly one proceeds; in the same transaction
// every instruction's pool gives up its advance (conditionally: never below zero), so nothing else can spend it
// while the file is at the bank. The ledger posts each disbursement when the bank confirms the file
// (confirm-batch.ts), the day the cash leaves the FBO account, so nightly reconciliation finds ledger, FBO
// position and rail on the same day.
// A batch is released only before its effective entry date (New York): from that day on its file would reach the
// bank stale-dated, so the release is refused and the batch withdrawn (withdraw-stale-batches.ts), to be built again.
import type { Deps } from '../deps';
import type { Actor } from '../http/route';
import type { Prisma } from '../db';
import { recordAudit } from '../audit/record-audit';
import { AppError } from '../errors';
import { readBatch, toBatchView, type PayoutBatchView } from './batch-view';
import { originatorDateTime } from './originator-date-time';
import { withdrawStaleBatches } from './withdraw-stale-batches';

// effectiveDate is YYYY-MM-DD, so text order is date order.
const RELEASE = `UPDATE "PayoutBatch" SET "status" = 'released', "releasedBy" = $3, "releasedAt" = $4
  WHERE "id" = $1 AND "clinicId" = $2 AND "status" = 'created' AND "effectiveDate" > $5 RETURNING "id"`;
const TAKE_FROM_POOL = `UPDATE "SettlementPool" SET "availableCents" = "availableCents" - $3::bigint
  WHERE "id" = $1 AND "clinicId" = $2 AND "status" = 'active' AND "availableCents" >= $3::bigint`;
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 15_000 };

async function holdAdvance(tx: Prisma.TransactionClient, clinicId: string, instructionId: string) {
  const row = await tx.settlementInstruction.findFirst({ where: { id: instructionId, clinicId, status: 'SIGNED' } });
  if (!row) throw new AppError('NOT_EXECUTABLE', `Instruction ${instructionId} is no longer SIGNED`);
  const taken = await tx.$executeRawUnsafe(TAKE_FROM_POOL, row.poolId, clinicId, row.advanceAmountCents);
  if (taken !== 1)
    throw new AppError('NOT_EXECUTABLE', `The pool of instruction ${instructionId} does not hold its advance`);
}

/** Released, or found stale and withdrawn (committed, then refused). */
type ReleaseOutcome = { released: PayoutBatchView } | { staleEffectiveDate: string };

/**
 * @throws NOT_FOUND (404) outside the clinic; NOT_EXECUTABLE (409) when the batch is already released (or a
 *   pool no longer holds an advance: then nothing is written), or when its effective date has come: then the
 *   batch is withdrawn (committed) before the refusal, so its instructions can go in a new batch.
 */
export async function releaseBatch(
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: Actor,
  batchId: string,
): Promise<PayoutBatchView> {
  const { clinicId } = actor;
  const now = deps.clock();
  const today = originatorDateTime(now).date;
  const outcome = await deps.db.$transaction(async (tx): Promise<ReleaseOutcome> => {
    const released = await tx.$queryRawUnsafe<{ id: string }[]>(RELEASE, batchId, clinicId, actor.userId, now, today);
    if (released.length === 0) {
      const existing = await readBatch(tx, clinicId, batchId);
      if (!existing) throw new AppError('NOT_FOUND', 'No such payout batch');
      if (existing.status !== 'created')
        throw new AppError('NOT_EXECUTABLE', `The batch is already ${existing.status}`);
      const [withdrawn] = await withdrawStaleBatches(tx, actor, { today, batchId });
      return { staleEffectiveDate: withdrawn?.effectiveDate ?? existing.effectiveDate };
    }
    const entries = await tx.payoutEntry.findMany({ where: { batchId, instructionId: { not: null } } });
    for (const entry of entries) await holdAdvance(tx, clinicId, entry.instructionId!);
    await recordAudit(tx, {
      action: 'settlement.batch.release',
      outcome: 'success',
      correlationId: actor.correlationId,
      userId: actor.userId,
      orgId: actor.orgId,
      clinicId,
      detail: { batchId, instructionIds: entries.map((entry) => entry.instructionId) },
    });
    return { released: toBatchView((await readBatch(tx, clinicId, batchId))!) };
  }, TRANSACTION_OPTIONS);
  if ('released' in outcome) return outcome.released;
  throw new AppError(
    'NOT_EXECUTABLE',
    `The batch's effective entry date ${outcome.staleEffectiveDate} has come, so its file would reach the bank ` +
      'stale-dated: the batch was withdrawn and its instructions are free; create the batch again',
  );
}
