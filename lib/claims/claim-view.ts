// A claim as the API shows it: money in integer cents (JSON numbers), dates as ISO strings.
import { z } from 'zod';
import { centsToNumber } from '../money/cents-to-number';

export const CLAIM_STATUSES = ['draft', 'submitted', 'paid'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

export const ClaimView = z.object({
  claimId: z.string(),
  patientId: z.string(),
  status: z.enum(CLAIM_STATUSES),
  totalChargeCents: z.number().int(),
  paidCents: z.number().int(),
  serviceDate: z.string(),
  idempotencyKey: z.string().nullable(),
  submittedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ClaimView = z.infer<typeof ClaimView>;

type ClaimRow = {
  id: string;
  patientId: string;
  status: string;
  totalChargeCents: bigint;
  paidCents: bigint;
  serviceDate: string;
  idempotencyKey: string | null;
  submittedAt: Date | null;
  createdAt: Date;
};

export function toClaimView(row: ClaimRow): ClaimView {
  return {
    claimId: row.id,
    patientId: row.patientId,
    status: row.status as ClaimStatus,
    totalChargeCents: centsToNumber(row.totalChargeCents),
    paidCents: centsToNumber(row.paidCents),
    serviceDate: row.serviceDate,
    idempotencyKey: row.idempotencyKey,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
