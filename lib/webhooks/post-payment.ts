// The ledger posting of an applied payment, from the target's totals after it: cash in, the receivable down
// by what was still owed, and any excess (an overpayment) to liabilities:unapplied-payments, so no cent the
// partner reported is dropped. Balanced by construction and checked by buildPosting and the database.
import type { Prisma } from '../db';
import { credit, debit, type LedgerLine } from '../ledger/build-posting';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import { postLedgerTransaction } from '../ledger/post-ledger-transaction';
import { type PaymentData, paymentTargetOf } from './payment-data';
import type { AppliedPayment } from './record-payment';

/** @returns the ledger transaction id. */
export async function postPayment(
  tx: Prisma.TransactionClient,
  input: { clinicId: string; data: PaymentData; applied: AppliedPayment; correlationId: string; now: Date },
): Promise<string> {
  const { data } = input;
  const amount = BigInt(data.amountCents);
  const owedBefore = BigInt(input.applied.owedCents) - (BigInt(input.applied.paidCents) - amount);
  const toReceivable = owedBefore <= 0n ? 0n : owedBefore < amount ? owedBefore : amount;
  const receivable = paymentTargetOf(data).kind === 'bill' ? LEDGER_ACCOUNTS.patientReceivable : LEDGER_ACCOUNTS.claimsReceivable;
  const lines: LedgerLine[] = [debit(LEDGER_ACCOUNTS.cash, amount)];
  if (toReceivable > 0n) lines.push(credit(receivable, toReceivable));
  if (amount > toReceivable) lines.push(credit(LEDGER_ACCOUNTS.unappliedPayments, amount - toReceivable));
  return postLedgerTransaction(tx, {
    clinicId: input.clinicId, kind: 'payment.succeeded', reference: `payment:${data.paymentId}`,
    correlationId: input.correlationId, postedAt: input.now, lines,
  });
}
