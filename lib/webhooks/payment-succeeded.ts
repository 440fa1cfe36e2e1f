// payment.succeeded: the partner collected money for one PatientBill or Claim of the event's clinic. Applied
// once per paymentId (the Payment row's key) whatever the delivery id, and once per delivery id (the
// delivery row): the money moves and the ledger posts in the delivery's transaction.
import { applied, defineEffect, recorded, rejected } from './event-effect';
import { PaymentData } from './payment-data';
import { findPaymentRefusal, promoteFailedPayment, recordSucceededPayment } from './record-payment';
import { postPayment } from './post-payment';

export const paymentSucceeded = defineEffect({
  receiver: 'payment',
  data: PaymentData,
  async apply(tx, { clinicId, data, correlationId, now }) {
    const fresh = await recordSucceededPayment(tx, clinicId, data, now);
    if (fresh) {
      await postPayment(tx, { clinicId, data, applied: fresh, correlationId, now });
      return applied();
    }
    const refusal = await findPaymentRefusal(tx, clinicId, data);
    if (refusal.kind === 'target') return rejected(refusal.reason);
    if (refusal.payment.clinicId !== clinicId) return rejected('payment belongs to another clinic');
    if (refusal.payment.status !== 'failed') return recorded('payment already applied');
    const retried = await promoteFailedPayment(tx, clinicId, data, now);
    if (retried) {
      await postPayment(tx, { clinicId, data, applied: retried, correlationId, now });
      return applied();
    }
    return rejected('payment was recorded as failed for another bill or claim, or its target no longer qualifies');
  },
});
