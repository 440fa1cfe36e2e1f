// Reassociation (DECISIONS "Money in"): the bank's deposit (banking.transaction.posted, a credit) whose
// railReference is an 835's TRN02 is that remittance's money. When exactly one posted remittance of the clinic
// carries the trace and its BPR02 equals the deposit, the money moves from era-clearing into the FBO account, dated
// when the bank posted it (so the day's ledger agrees with the rail). Amounts that disagree post nothing and are
// left to the nightly reconciliation, which raises the variance. Called from both sides, whichever arrives second:
// 835 ingest and the banking webhook. A transaction-scoped advisory lock per (clinic, trace) serialises the two, so
// of a racing ERA and deposit exactly one sees the other and posts.
import type { Prisma } from '../db';
import { credit, debit } from '../ledger/build-posting';
import { LEDGER_ACCOUNTS } from '../ledger/ledger-accounts';
import { postLedgerTransaction } from '../ledger/post-ledger-transaction';

export const DEPOSIT_KIND = 'remittance.deposit';

const LOCK_TRACE = `SELECT pg_advisory_xact_lock(hashtext($1)) IS NULL AS "locked"`;

export type Reassociation = { remittanceId: string; railPostingId: string; ledgerTransactionId: string } | null;

export async function reassociate(
  tx: Prisma.TransactionClient,
  input: { clinicId: string; traceNumber: string; correlationId: string },
): Promise<Reassociation> {
  const { clinicId, traceNumber } = input;
  await tx.$queryRawUnsafe(LOCK_TRACE, `reassociate:${clinicId}:${traceNumber}`);
  const remittances = await tx.remittance.findMany({
    where: { clinicId, traceNumber, paymentCents: { gt: 0n } },
    // Not its ledger list: a payer-scale 835's runs to hundreds of thousands of ids (tens of megabytes read back
    // into the heap at the end of every posting, bench era-post); the deposit's id is appended in SQL.
    select: { id: true, paymentCents: true },
    take: 2,
  });
  const deposits = await tx.railPosting.findMany({
    where: { clinicId, railReference: traceNumber, direction: 'credit' },
    orderBy: [{ postedAt: 'asc' }, { id: 'asc' }],
    take: 2,
  });
  // Two remittances (two payers reusing a trace) or two deposits under one trace: a person decides, not a guess.
  const [remittance] = remittances;
  const [deposit] = deposits;
  if (remittances.length !== 1 || deposits.length !== 1 || !remittance || !deposit) return null;
  if (deposit.amountCents !== remittance.paymentCents) return null;
  const reference = `remittance:${remittance.id}`;
  const done = await tx.ledgerTransaction.findFirst({ where: { clinicId, kind: DEPOSIT_KIND, reference } });
  if (done) return null;
  const ledgerTransactionId = await postLedgerTransaction(tx, {
    clinicId,
    kind: DEPOSIT_KIND,
    reference,
    correlationId: input.correlationId,
    postedAt: deposit.postedAt,
    lines: [debit(LEDGER_ACCOUNTS.fbo, deposit.amountCents), credit(LEDGER_ACCOUNTS.eraClearing, deposit.amountCents)],
  });
  await tx.remittance.update({
    where: { id: remittance.id },
    data: { ledgerTransactionIds: { push: ledgerTransactionId } },
  });
  return { remittanceId: remittance.id, railPostingId: deposit.id, ledgerTransactionId };
}
