// The data of payment.succeeded / payment.failed (DECISIONS.md, Webhooks) and where a payment points: one
// PatientBill or one Claim, of the event's clinic. Amounts are integer cents in USD; nothing else is accepted.
import { z } from 'zod';
import { amountTooLargeMessage, MAX_AMOUNT_CENTS } from '../money/cents';

const Id = z.string().min(1).max(200);

export const PaymentData = z
  .object({
    paymentId: Id,
    billId: Id.optional(),
    claimId: Id.optional(),
    amountCents: z
      .number()
      .int('amountCents must be an integer number of cents')
      .positive()
      .max(MAX_AMOUNT_CENTS, amountTooLargeMessage('amountCents')),
    currency: z.literal('USD', { message: 'currency must be USD' }),
  })
  .refine((d) => (d.billId === undefined) !== (d.claimId === undefined), {
    message: 'exactly one of billId or claimId is required',
    path: ['billId'],
  });
export type PaymentData = z.infer<typeof PaymentData>;

export type PaymentTarget = { kind: 'bill'; billId: string } | { kind: 'claim'; claimId: string };

export const paymentTargetOf = (data: PaymentData): PaymentTarget =>
  data.billId !== undefined ? { kind: 'bill', billId: data.billId } : { kind: 'claim', claimId: data.claimId! };

/** PatientBill.paidCents is a 32-bit column: a payment that would overflow it is refused, never truncated. */
export const MAX_BILL_CENTS = 2_147_483_647;

/**
 * What a claim's paidCents may reach: one amount's bound. A claim takes any number of payments, so without a
 * cap its total (reported by GET /api/claims) could pass a safe integer; a payment beyond it is refused.
 */
export const MAX_CLAIM_PAID_CENTS = MAX_AMOUNT_CENTS;
