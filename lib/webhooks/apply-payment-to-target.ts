// Applies a succeeded payment's money, once its Payment row is recorded: the bill or claim's paidCents grows
// by the amount (partial payments accumulate; the status becomes paid when paidCents reaches what is owed) and
// a balanced ledger transaction posts it. An overpayment is kept, not dropped: the part beyond what was still
// owed goes to liabilities:unapplied-payments.
import type { Prisma } from '../db';
import { credit, debit, type LedgerLine } from '../money/ledger';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import { postLedgerTransaction } from '../ledger/post-ledger-transaction';
import { type PaymentData, paymentTargetOf } from './payment-data';

// Constant SQL; every value is a bound parameter. One statement adds the amount and sets the status from
// the new total, under the row lock, so concurrent payments of one bill cannot lose an update.
const ADD_TO_BILL = `UPDATE "PatientBill"
  SET "paidCents" = "paidCents" + $3::int,
      "status" = CASE WHEN "paidCents" + $3::int >= "amountCents" THEN 'paid' ELSE 'open' END,
      "updatedAt" = $4
  WHERE "id" = $1 AND "clinicId" = $2
  RETURNING "amountCents"::bigint AS "owedCents", "paidCents"::bigint AS "paidCents"`;

const ADD_TO_CLAIM = `UPDATE "Claim"
  SET "paidCents" = "paidCents" + $3::bigint,
      "status" = CASE WHEN "paidCents" + $3::bigint >= "totalChargeCents" THEN 'paid' ELSE "status" END,
      "updatedAt" = $4
  WHERE "id" = $1 AND "clinicId" = $2
  RETURNING "totalChargeCents" AS "owedCents", "paidCents"`;

/**
 * @returns the ledger transaction id.
 * @throws Error when the target vanished between recording and applying (bills and claims are never
 *   deleted, so this is a bug; the whole delivery rolls back).
 */
export async function applyPaymentToTarget(
  tx: Prisma.TransactionClient,
  input: { clinicId: string; data: PaymentData; correlationId: string; now: Date },
): Promise<string> {
  const { clinicId, data } = input;
  const target = paymentTargetOf(data);
  const amount = BigInt(data.amountCents);
  const [row] = target.kind === 'bill'
    ? await tx.$queryRawUnsafe<{ owedCents: bigint; paidCents: bigint }[]>(ADD_TO_BILL, target.billId, clinicId, data.amountCents, input.now)
    : await tx.$queryRawUnsafe<{ owedCents: bigint; paidCents: bigint }[]>(ADD_TO_CLAIM, target.claimId, clinicId, amount, input.now);
  if (!row) throw new Error(`payment target ${target.kind} vanished while applying payment ${data.paymentId}`);

  const owedBefore = BigInt(row.owedCents) - (BigInt(row.paidCents) - amount);
  const appliedCents = owedBefore <= 0n ? 0n : owedBefore < amount ? owedBefore : amount;
  const unappliedCents = amount - appliedCents;
  const receivable = target.kind === 'bill' ? LEDGER_ACCOUNTS.patientReceivable : LEDGER_ACCOUNTS.claimsReceivable;
  const lines: LedgerLine[] = [debit(LEDGER_ACCOUNTS.cash, amount)];
  if (appliedCents > 0n) lines.push(credit(receivable, appliedCents));
  if (unappliedCents > 0n) lines.push(credit(LEDGER_ACCOUNTS.unappliedPayments, unappliedCents));

  return postLedgerTransaction(tx, {
    clinicId, kind: 'payment.succeeded', reference: `payment:${data.paymentId}`, correlationId: input.correlationId, postedAt: input.now, lines,
  });
}
