// payment.succeeded: the partner collected money for one PatientBill or Claim of the event's clinic. Applied
// once per paymentId (the Payment row's key) whatever the delivery id, and once per delivery id (the
// delivery row): the money moves and the ledger posts in the delivery's transaction.
import { applied, defineEffect, recorded, rejected } from './event-effect';
import { PaymentData } from './payment-data';
import { findPaymentRefusal, insertPayment, promoteFailedPayment } from './record-payment';
import { applyPaymentToTarget } from './apply-payment-to-target';

export const paymentSucceeded = defineEffect({
  receiver: 'payment',
  data: PaymentData,
  async apply(tx, event) {
    const { clinicId, data } = event;
    const input = { clinicId, data, correlationId: event.correlationId, now: event.now };
    if (await insertPayment(tx, clinicId, data, 'succeeded')) {
      await applyPaymentToTarget(tx, input);
      return applied();
    }
    const refusal = await findPaymentRefusal(tx, clinicId, data);
    if (refusal.kind === 'target') return rejected(refusal.reason);
    const { payment } = refusal;
    if (payment.clinicId !== clinicId) return rejected('payment belongs to another clinic');
    if (payment.status !== 'failed') return recorded('payment already applied');
    if (await promoteFailedPayment(tx, clinicId, data)) {
      await applyPaymentToTarget(tx, input);
      return applied();
    }
    return rejected('payment was recorded as failed for another bill or claim, or its target no longer qualifies');
  },
});
