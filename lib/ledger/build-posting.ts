// Double-entry postings as plain values: debit and credit lines and a builder that refuses anything that would
// not balance (account names are ledger-accounts.ts's). Writing a posting belongs to post-ledger-transaction.ts,
// in the caller's transaction; the database's deferred balance trigger is the second check, this is the first.
import type { Cents } from '../money/cents';

/** One entry of a posting, in integer cents: debits positive, credits negative (as LedgerEntry stores it). */
export type LedgerLine = { account: string; amountCents: bigint };

function toPositiveBigInt(amountCents: bigint | Cents): bigint {
  if (typeof amountCents === 'number' && !Number.isSafeInteger(amountCents)) {
    throw new RangeError(`cents must be a safe integer: ${amountCents}`);
  }
  const value = BigInt(amountCents);
  // A "debit" of a negative amount is a credit in disguise; say which side explicitly instead.
  if (value <= 0n) throw new RangeError(`a debit or credit must be a positive amount of cents: ${value}`);
  return value;
}

/** A debit (positive) line. @throws RangeError unless `amountCents` is a positive integer. */
export function debit(account: string, amountCents: bigint | Cents): LedgerLine {
  return { account, amountCents: toPositiveBigInt(amountCents) };
}

/** A credit (negative) line. @throws RangeError unless `amountCents` is a positive integer. */
export function credit(account: string, amountCents: bigint | Cents): LedgerLine {
  return { account, amountCents: -toPositiveBigInt(amountCents) };
}

/**
 * Checks that `lines` form a balanced double-entry posting and returns a copy of them, safe to write.
 *
 * @throws RangeError for fewer than two lines, a line without an account, a zero-amount line, or lines
 *   that do not sum to zero. Nothing is written either way: the function is pure.
 */
export function buildPosting(lines: readonly LedgerLine[]): LedgerLine[] {
  if (lines.length < 2) throw new RangeError('a posting needs at least two lines');
  let balance = 0n;
  for (const line of lines) {
    if (typeof line.account !== 'string' || line.account.trim() === '') {
      throw new RangeError('every ledger line needs an account');
    }
    if (typeof line.amountCents !== 'bigint') throw new RangeError('ledger amounts must be bigint cents');
    // A zero line carries no money and would only hide a mistake in the caller's arithmetic.
    if (line.amountCents === 0n) throw new RangeError(`zero-amount line on ${line.account}`);
    balance += line.amountCents;
  }
  if (balance !== 0n) throw new RangeError(`unbalanced posting: debits and credits differ by ${balance} cents`);
  return lines.map(({ account, amountCents }) => ({ account, amountCents }));
}
