// payment.failed: the partner could not collect. Records the failure (a Payment row with status failed) for
// a bill or claim of the event's clinic; no money moves and nothing posts to the ledger.
import { applied, defineEffect, recorded, rejected } from './event-effect';
import { PaymentData } from './payment-data';
import { findPaymentRefusal, recordFailedPayment } from './record-payment';

export const paymentFailed = defineEffect({
  receiver: 'payment',
  data: PaymentData,
  async apply(tx, event) {
    if (await recordFailedPayment(tx, event.clinicId, event.data)) return applied();
    const refusal = await findPaymentRefusal(tx, event.clinicId, event.data);
    if (refusal.kind === 'target') return rejected(refusal.reason);
    if (refusal.payment.clinicId !== event.clinicId) return rejected('payment belongs to another clinic');
    // A failure reported after a success (or twice) changes nothing: refunds are not payment.failed.
    return recorded(
      refusal.payment.status === 'failed' ? 'payment failure already recorded' : 'payment already succeeded',
    );
  },
});
