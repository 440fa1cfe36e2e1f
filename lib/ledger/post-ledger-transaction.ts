// Writes one double-entry ledger transaction (a LedgerTransaction and its LedgerEntry rows) inside the
// caller's database transaction, so a posting commits or rolls back with the effect it records. It never
// opens a transaction of its own. buildPosting refuses an unbalanced posting before anything is written; the
// deferred balance trigger (migration 20261122060400_ledger_balance_check) refuses one again at commit.
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../db';
import { buildPosting, type LedgerLine } from './build-posting';

export type LedgerPosting = {
  clinicId: string;
  /** What happened, e.g. `payment.succeeded`, `settlement.disbursement`. */
  kind: string;
  /** The source document, e.g. `payment:<paymentId>`, `settlement:<instructionId>`. */
  reference: string;
  correlationId: string;
  /** When it happened (the caller's clock): reconciliation assigns postings to days by it. */
  postedAt: Date;
  lines: readonly LedgerLine[];
};

const newLedgerTransactionId = () => `ltx_${randomUUID().replaceAll('-', '')}`;

/**
 * The statement for a posting of `lineCount` lines: $1..$6 the transaction (id, clinicId, kind, reference,
 * correlationId, createdAt), then (entry id, account, amountCents) per line. Constant text per line count;
 * every value is a bound parameter.
 */
function ledgerInsertSql(lineCount: number): string {
  const values = Array.from(
    { length: lineCount },
    (_, i) => `($${7 + 3 * i}, $1, $${8 + 3 * i}, $${9 + 3 * i}::bigint)`,
  );
  return `WITH t AS (
       INSERT INTO "LedgerTransaction" ("id", "clinicId", "kind", "reference", "correlationId", "createdAt") VALUES ($1, $2, $3, $4, $5, $6)
     )
     INSERT INTO "LedgerEntry" ("id", "transactionId", "account", "amountCents") VALUES ${values.join(', ')}`;
}

/**
 * Inserts the transaction and all its entries in one statement (a data-modifying CTE), so a posting costs
 * one round trip inside the caller's transaction.
 *
 * @returns the new ledger transaction id.
 * @throws RangeError (from buildPosting) for an unbalanced or malformed posting; nothing is written.
 */
export async function postLedgerTransaction(tx: Prisma.TransactionClient, posting: LedgerPosting): Promise<string> {
  const lines = buildPosting(posting.lines);
  const transactionId = newLedgerTransactionId();
  const params: unknown[] = [
    transactionId,
    posting.clinicId,
    posting.kind,
    posting.reference,
    posting.correlationId,
    posting.postedAt,
  ];
  lines.forEach((line, index) => params.push(`${transactionId}_${index + 1}`, line.account, line.amountCents));
  await tx.$executeRawUnsafe(ledgerInsertSql(lines.length), ...params);
  return transactionId;
}
