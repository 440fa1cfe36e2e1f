// A settlement instruction as the API shows it (SPEC.md: integer-cent fields and the waterfall). The status
// shown is the effective one: a DRAFT or SIGNED instruction past its expiresAt reads as EXPIRED, exactly as
// execute treats it, without a write.
import { z } from 'zod';
import { centsToNumber } from '../money/cents-to-number';

// RETURNED: disbursed in a payout batch, then returned by the receiving bank (an ACH return; lib/payouts).
export const INSTRUCTION_STATUSES = ['DRAFT', 'SIGNED', 'DISBURSED', 'CANCELLED', 'EXPIRED', 'RETURNED'] as const;
export type InstructionStatus = (typeof INSTRUCTION_STATUSES)[number];

const Cents = z.number().int();

export const InstructionView = z.object({
  instructionId: z.string(),
  status: z.enum(INSTRUCTION_STATUSES),
  poolId: z.string(),
  encounterId: z.string().nullable(),
  advanceAmountCents: Cents,
  /** What the instruction's pool has available now. */
  availableCents: Cents,
  /** What this instruction has disbursed: the advance once DISBURSED, else 0. */
  paidAmountCents: Cents,
  feeBps: z.number().int(),
  reserveBps: z.number().int(),
  waterfall: z.object({ poolCents: Cents, feeCents: Cents, reserveCents: Cents, residualCents: Cents }),
  railReference: z.string().nullable(),
  createdBy: z.string(),
  signedBy: z.string().nullable(),
  createdAt: z.string(),
  signedAt: z.string().nullable(),
  disbursedAt: z.string().nullable(),
  expiresAt: z.string(),
});
export type InstructionView = z.infer<typeof InstructionView>;

export type InstructionRow = {
  id: string;
  status: string;
  poolId: string;
  encounterId: string | null;
  advanceAmountCents: bigint;
  feeBps: number;
  reserveBps: number;
  poolCents: bigint;
  feeCents: bigint;
  reserveCents: bigint;
  residualCents: bigint;
  paidAmountCents: bigint;
  railReference: string | null;
  createdBy: string;
  signedBy: string | null;
  createdAt: Date;
  signedAt: Date | null;
  disbursedAt: Date | null;
  expiresAt: Date;
};

export function effectiveStatus(row: Pick<InstructionRow, 'status' | 'expiresAt'>, now: Date): InstructionStatus {
  const status = row.status as InstructionStatus;
  return (status === 'DRAFT' || status === 'SIGNED') && row.expiresAt <= now ? 'EXPIRED' : status;
}

export function toInstructionView(row: InstructionRow, pool: { availableCents: bigint }, now: Date): InstructionView {
  return {
    instructionId: row.id,
    status: effectiveStatus(row, now),
    poolId: row.poolId,
    encounterId: row.encounterId,
    advanceAmountCents: centsToNumber(row.advanceAmountCents),
    availableCents: centsToNumber(pool.availableCents),
    paidAmountCents: centsToNumber(row.paidAmountCents),
    feeBps: row.feeBps,
    reserveBps: row.reserveBps,
    waterfall: {
      poolCents: centsToNumber(row.poolCents),
      feeCents: centsToNumber(row.feeCents),
      reserveCents: centsToNumber(row.reserveCents),
      residualCents: centsToNumber(row.residualCents),
    },
    railReference: row.railReference,
    createdBy: row.createdBy,
    signedBy: row.signedBy,
    createdAt: row.createdAt.toISOString(),
    signedAt: row.signedAt?.toISOString() ?? null,
    disbursedAt: row.disbursedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
  };
}
