// banking.transaction.returned: an ACH return of one payout entry (DECISIONS "Money out"). Reverses that
// instruction's disbursement once (lib/payouts/return-payout.ts); a re-delivery changes nothing. A prenote's return
// carries no instructionId (a prenote pays none): its railReference, the entry's trace number, names it, and the
// payout account it proved needs a new prenote.
import { z } from 'zod';
import { amountTooLargeMessage, MAX_AMOUNT_CENTS } from '../money/cents';
import { returnPayout } from '../payouts/return-payout';
import { applied, defineEffect, recorded, rejected } from './event-effect';

export const BankingTransactionReturnedData = z.object({
  transactionId: z.string().min(1).max(200),
  railReference: z.string().min(1).max(200),
  /** Absent for the return of a prenote. */
  instructionId: z.string().min(1).max(200).optional(),
  amountCents: z
    .number()
    .int('amountCents must be an integer number of cents')
    .nonnegative()
    .max(MAX_AMOUNT_CENTS, amountTooLargeMessage('amountCents')),
  /** NACHA return reason code: R01, R03, ... */
  returnCode: z.string().regex(/^R\d{2}$/, 'returnCode must be an ACH return reason code such as R01'),
});

export const bankingTransactionReturned = defineEffect({
  receiver: 'banking',
  data: BankingTransactionReturnedData,
  async apply(tx, { clinicId, data, correlationId, now }) {
    const outcome = await returnPayout(tx, {
      clinicId,
      instructionId: data.instructionId ?? null,
      railReference: data.railReference,
      returnCode: data.returnCode,
      amountCents: BigInt(data.amountCents),
      at: now,
      correlationId,
    });
    if (outcome === 'already-returned') return recorded('payout already returned');
    if (outcome === 'unknown-entry') return rejected('no released payout entry of this clinic matches');
    return applied();
  },
});
