// Integer cents: the only money unit inside the platform. Decimal strings are converted digit by digit,
// never through a float (decimal.ts), so "0.29" is 29 cents and not 28.999999.
import { decimalToCents, readDecimal } from './decimal';

declare const centsBrand: unique symbol;
export type Cents = number & { readonly [centsBrand]: true };

/**
 * The largest single amount accepted anywhere money enters (a payment, a rail posting, a settlement advance, a
 * claim's charge): 1e11 cents, $1,000,000,000.00. Chosen so that every sum the API reports stays a safe integer
 * (2^53 - 1 = 9,007,199,254,740,991 cents), exactly, as a JSON number:
 * - a sum of rows each at most this is safe for up to 90,071 rows (MAX_SAFE_SUM_CENTS / MAX_AMOUNT_CENTS);
 * - where the number of rows is not bounded by construction, the writer refuses the row that would take the
 *   running total past a cap, in the statement that writes it: a claim's paidCents stops at MAX_AMOUNT_CENTS
 *   (a bill's at its 32-bit column), and one clinic's rail postings of one UTC day at MAX_RAIL_DAY_CENTS in
 *   absolute value, so reconciliation's rail figure is safe whatever the sign mix and whichever day it totals;
 * - reconciliation's ledger and FBO figures move only by disbursements, and a disbursement only takes what a
 *   settlement pool holds: no route creates or funds a pool, so those figures are bounded by the funds the
 *   operator provisions, not by anything a request or partner sends.
 */
export const MAX_AMOUNT_CENTS = 100_000_000_000;

/** The largest total a reported sum may reach: Number.MAX_SAFE_INTEGER cents (see MAX_AMOUNT_CENTS). */
export const MAX_SAFE_SUM_CENTS = Number.MAX_SAFE_INTEGER;

/**
 * The largest absolute total of one clinic's rail postings of one UTC day: half of MAX_SAFE_SUM_CENTS. A
 * reconciliation totals the clinic's own calendar day (23 to 25 hours in its time zone, whoever runs it), which
 * overlaps at most two UTC days, so its rail figure stays safe. Capped at the whole of MAX_SAFE_SUM_CENTS, a clinic
 * day across two full UTC days summed past it and the nightly run failed.
 */
export const MAX_RAIL_DAY_CENTS = Math.floor(MAX_SAFE_SUM_CENTS / 2);

/** The message for an amount over MAX_AMOUNT_CENTS, naming the field as the client sent it. */
export const amountTooLargeMessage = (field: string) =>
  `${field} must be at most ${MAX_AMOUNT_CENTS} cents (1,000,000,000.00 USD)`;

/** "1500", "1500.5", "-0.29" to cents. Throws RangeError for anything else, including a third decimal place. */
export function parseDecimalToCents(value: string): Cents {
  const text = value.trim();
  const isNegative = text.startsWith('-');
  const decimal = readDecimal(isNegative ? text.slice(1) : text);
  // Stricter than the reader: a whole part is required ("0.5", never ".5"), and at most two places.
  if (!decimal || decimal.whole === '' || decimal.fraction.length > 2) {
    throw new RangeError(`not a decimal amount with at most 2 places: ${JSON.stringify(value)}`);
  }
  const cents = decimalToCents(decimal)!;
  if (cents > Number.MAX_SAFE_INTEGER) throw new RangeError('amount too large');
  return (isNegative && cents !== 0 ? -cents : cents) as Cents;
}

/** Cents to a decimal string with two places ("1500.00"), for display and wire formats that need dollars. */
export function formatCentsAsDecimal(amountCents: number): string {
  if (!Number.isSafeInteger(amountCents)) throw new RangeError('cents must be a safe integer');
  const sign = amountCents < 0 ? '-' : '';
  const abs = Math.abs(amountCents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function asCents(value: number): Cents {
  if (!Number.isSafeInteger(value)) throw new RangeError(`cents must be a safe integer: ${value}`);
  return value as Cents;
}
