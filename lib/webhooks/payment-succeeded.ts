// payment.succeeded: the partner collected money for one PatientBill or Claim of the event's clinic. Applied
// once per paymentId (the Payment row's key) whatever the delivery id, and once per delivery id (the
// delivery row): the money moves and the ledger posts with the delivery row. The common case, a first
// delivery of a new paymentId, is one statement (the ingest rate of a partner's bursts rests on it).
import { isUniqueViolation } from '../db/is-unique-violation';
import { applied, defineEffect, recorded, rejected } from './event-effect';
import { PaymentData } from './payment-data';
import {
  findPaymentRefusal,
  promoteFailedPayment,
  recordDeliveredSucceededPayment,
  recordSucceededPayment,
} from './record-payment';

export const paymentSucceeded = defineEffect({
  receiver: 'payment',
  data: PaymentData,
  async applyWithDelivery(db, delivery, event) {
    try {
      return await recordDeliveredSucceededPayment(db, delivery, event);
    } catch (error) {
      // A concurrent delivery wrote the same paymentId first: nothing was written; the transaction says so.
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  },
  async apply(tx, event) {
    if (await recordSucceededPayment(tx, event)) return applied();
    const { clinicId, data } = event;
    const refusal = await findPaymentRefusal(tx, clinicId, data);
    if (refusal.kind === 'target') return rejected(refusal.reason);
    if (refusal.payment.clinicId !== clinicId) return rejected('payment belongs to another clinic');
    if (refusal.payment.status !== 'failed') return recorded('payment already applied');
    if (await promoteFailedPayment(tx, event)) return applied();
    return rejected('payment was recorded as failed for another bill or claim, or its target no longer qualifies');
  },
});
