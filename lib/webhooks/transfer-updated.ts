// transfer.updated: the transfer partner reports a transfer's new status. A transfer only moves along
// TRANSFER_TRANSITIONS; an unknown transfer is created by its first `pending` event. Any other move is
// rejected and changes nothing. An event older than the last one applied to the transfer is stale and changes
// nothing (apply-in-order.ts).
import { z } from 'zod';
import type { Prisma } from '../db';
import { applied, defineEffect, recorded, rejected, type EffectResult } from './event-effect';
import { applyInOrder } from './apply-in-order';

export const TRANSFER_STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled', 'returned'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** Allowed next statuses. failed, cancelled and returned are final; a completed transfer can still bounce. */
export const TRANSFER_TRANSITIONS: Record<TransferStatus, readonly TransferStatus[]> = {
  pending: ['processing', 'cancelled', 'failed'],
  processing: ['completed', 'failed'],
  completed: ['returned'],
  failed: [],
  cancelled: [],
  returned: [],
};

export const TransferUpdatedData = z.object({
  transferId: z.string().min(1).max(200),
  status: z.enum(TRANSFER_STATUSES),
});
type TransferUpdatedData = z.infer<typeof TransferUpdatedData>;

const previousStatuses = (next: TransferStatus) =>
  TRANSFER_STATUSES.filter((from) => TRANSFER_TRANSITIONS[from].includes(next));

/** Moves the transfer, if its status allows, and says what happened. */
async function moveTransfer(
  tx: Prisma.TransactionClient,
  clinicId: string,
  data: TransferUpdatedData,
  now: Date,
): Promise<EffectResult> {
  // One conditional update: only a transfer of this clinic in a status that may move to the new one.
  const moved = await tx.transfer.updateMany({
    where: { id: data.transferId, clinicId, status: { in: previousStatuses(data.status) } },
    data: { status: data.status, updatedAt: now },
  });
  if (moved.count === 1) return applied();

  const transfer = await tx.transfer.findUnique({
    where: { id: data.transferId },
    select: { clinicId: true, status: true },
  });
  if (!transfer) {
    if (data.status !== 'pending') return rejected(`unknown transfer cannot start as ${data.status}`);
    const clinic = await tx.clinic.findUnique({ where: { id: clinicId }, select: { id: true } });
    if (!clinic) return rejected('unknown clinic');
    const { count } = await tx.transfer.createMany({
      data: [{ id: data.transferId, clinicId, status: 'pending', updatedAt: now }],
      skipDuplicates: true,
    });
    return count === 1 ? applied() : recorded('transfer already pending');
  }
  if (transfer.clinicId !== clinicId) return rejected('transfer not found in this clinic');
  if (transfer.status === data.status) return recorded(`transfer already ${data.status}`);
  return rejected(`transfer cannot move from ${transfer.status} to ${data.status}`);
}

export const transferUpdated = defineEffect({
  receiver: 'transfer',
  data: TransferUpdatedData,
  apply: (tx, { clinicId, createdAt, data, now }) =>
    applyInOrder(tx, { clinicId, objectType: 'transfer', objectId: data.transferId }, createdAt, () =>
      moveTransfer(tx, clinicId, data, now),
    ),
});
