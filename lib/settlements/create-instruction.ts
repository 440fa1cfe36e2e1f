// Creating a settlement instruction: a DRAFT that advances `advanceAmountCents` from one of the clinic's
// pools, split by the waterfall (poolCents = the advance: fee and reserve by basis points, residual the rest,
// summing exactly). It expires INSTRUCTION_TTL_HOURS after creation whether or not it was signed.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { allocateByBasisPoints } from '../money/allocate';
import { amountTooLargeMessage, MAX_AMOUNT_CENTS } from '../money/cents';
import { recordAudit } from '../audit/record-audit';
import { InstructionView, toInstructionView } from './instruction-view';

export const INSTRUCTION_TTL_HOURS = 24;

const Bps = z.number().int().min(0).max(10_000);

export const CreateInstructionBody = z
  .object({
    poolId: z.string().trim().min(1).max(200),
    encounterId: z.string().trim().min(1).max(200).optional(),
    // Zero is accepted as a DRAFT; execute refuses a non-positive advance with NOT_EXECUTABLE (SPEC.md).
    advanceAmountCents: z
      .number()
      .int('advanceAmountCents must be an integer number of cents')
      .min(0)
      .max(MAX_AMOUNT_CENTS, amountTooLargeMessage('advanceAmountCents')),
    feeBps: Bps,
    reserveBps: Bps,
  })
  .refine((b) => b.feeBps + b.reserveBps <= 10_000, {
    message: 'feeBps + reserveBps must not exceed 10000',
    path: ['reserveBps'],
  });

/** @throws NOT_FOUND (404) for a pool that is not the clinic's. */
export async function createInstruction(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: z.infer<typeof CreateInstructionBody> & {
    clinicId: string;
    orgId: string;
    userId: string;
    correlationId: string;
  },
): Promise<InstructionView> {
  const { db } = deps;
  const now = deps.clock();
  const pool = await db.settlementPool.findFirst({
    where: { id: input.poolId, clinicId: input.clinicId },
    select: { availableCents: true },
  });
  if (!pool) throw new AppError('NOT_FOUND', 'No such settlement pool');
  const waterfall = allocateByBasisPoints(BigInt(input.advanceAmountCents), {
    feeBps: input.feeBps,
    reserveBps: input.reserveBps,
  });
  const row = await db.$transaction(async (tx) => {
    const created = await tx.settlementInstruction.create({
      data: {
        id: `ins_${randomUUID().replaceAll('-', '')}`,
        clinicId: input.clinicId,
        poolId: input.poolId,
        encounterId: input.encounterId ?? null,
        status: 'DRAFT',
        advanceAmountCents: BigInt(input.advanceAmountCents),
        feeBps: input.feeBps,
        reserveBps: input.reserveBps,
        ...waterfall,
        createdBy: input.userId,
        correlationId: input.correlationId,
        expiresAt: new Date(now.getTime() + INSTRUCTION_TTL_HOURS * 3600_000),
        createdAt: now,
      },
    });
    await recordAudit(tx, {
      action: 'settlement.instruction.create',
      outcome: 'success',
      correlationId: input.correlationId,
      userId: input.userId,
      orgId: input.orgId,
      clinicId: input.clinicId,
      detail: { instructionId: created.id },
    });
    return created;
  });
  return toInstructionView(row, pool, now);
}
