// Every event type the receivers apply, by name (DECISIONS.md, Webhooks). A type not listed here, or sent to
// a receiver other than its own, is acknowledged and recorded but not applied.
import type { EventEffect } from './event-effect';
import { paymentSucceeded } from './payment-succeeded';
import { paymentFailed } from './payment-failed';
import { faxReceived } from './fax-received';
import { emrPatientUpdated } from './emr-patient-updated';
import { transferUpdated } from './transfer-updated';
import { bankingTransactionPosted } from './banking-transaction-posted';
import { bankingTransactionReturned } from './banking-transaction-returned';
import { eraReceived } from '../remittances/era-received';

export const EVENT_EFFECTS: Readonly<Record<string, EventEffect>> = {
  'payment.succeeded': paymentSucceeded,
  'payment.failed': paymentFailed,
  'fax.received': faxReceived,
  'emr.patient.updated': emrPatientUpdated,
  'transfer.updated': transferUpdated,
  'banking.transaction.posted': bankingTransactionPosted,
  'banking.transaction.returned': bankingTransactionReturned,
  'era.received': eraReceived,
};
