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

/** One posting of a batch, its id chosen by the caller (a remittance lists its transactions in its own order). */
export type BatchedLedgerPosting = { id: string; kind: string; reference: string; lines: readonly LedgerLine[] };

// A batch in two statements whatever its size: the rows travel as one JSON text parameter each (one string crosses
// the ORM's query layer at once, where array elements or per-row parameters each cost CPU), and json_to_recordset
// turns them back into rows. The entries' bigint cents go as decimal strings, read exactly as bigint.
const INSERT_TRANSACTIONS = `INSERT INTO "LedgerTransaction" ("id", "clinicId", "kind", "reference", "correlationId", "createdAt")
  SELECT t.id, $1, t.kind, t.reference, $2, $3 FROM json_to_recordset($4::json) AS t(id text, kind text, reference text)`;
const INSERT_ENTRIES = `INSERT INTO "LedgerEntry" ("id", "transactionId", "account", "amountCents")
  SELECT e.id, e.t, e.a, e.c FROM json_to_recordset($1::json) AS e(id text, t text, a text, c bigint)`;
/**
 * Writes many postings of one clinic, correlation and date in two statements (the set-based form of
 * postLedgerTransaction, for an 835 of thousands of claims). Each posting is checked by buildPosting first.
 * @throws RangeError for an unbalanced or malformed posting; nothing is written.
 */
export async function postLedgerTransactions(
  tx: Prisma.TransactionClient,
  common: { clinicId: string; correlationId: string; postedAt: Date },
  postings: readonly BatchedLedgerPosting[],
): Promise<void> {
  if (postings.length === 0) return;
  const entries: { id: string; t: string; a: string; c: string }[] = [];
  for (const posting of postings) {
    buildPosting(posting.lines).forEach((line, index) => {
      entries.push({
        id: `${posting.id}_${index + 1}`,
        t: posting.id,
        a: line.account,
        c: line.amountCents.toString(),
      });
    });
  }
  const transactions = postings.map(({ id, kind, reference }) => ({ id, kind, reference }));
  await tx.$executeRawUnsafe(
    INSERT_TRANSACTIONS,
    common.clinicId,
    common.correlationId,
    common.postedAt,
    JSON.stringify(transactions),
  );
  await tx.$executeRawUnsafe(INSERT_ENTRIES, JSON.stringify(entries));
}
