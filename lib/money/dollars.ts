// The one place dollars enter the platform: claim inline-create `totalCharge` (SPEC.md, Money rule 2).
// Owns the dollars → cents conversion and its limits; it does not decide whether zero is a valid charge
// (the claim schema does) and never converts back to dollars (formatCentsAsDecimal does that).
import { type Cents, parseDecimalToCents } from './cents';

/**
 * Largest amount accepted in dollars: $9,999,999,999,999.99. A binary64 number keeps only 15 significant
 * decimal digits for certain, so above this two distinct two-place amounts can parse to the same double
 * (JSON `90071992547409.91` reads back as 90071992547409.9) and the cents the client wrote are lost.
 * Strings use the same cap so the contract reads the same whichever JSON type a client sends.
 */
export const MAX_DOLLAR_INPUT_CENTS = 999_999_999_999_999;

// JSON number grammar without sign or exponent, at most two places. A leading zero only before the point,
// and no trailing ".", so a string means what the same text would mean as a JSON number.
const DOLLARS = /^(?:0|[1-9]\d*)(?:\.\d{1,2})?$/;

/**
 * Dollars (a JSON number such as 125.5, or the same text as a string) to integer cents, exactly.
 *
 * A number is read through its shortest round-trip decimal string (`String(value)`), which for any
 * amount below {@link MAX_DOLLAR_INPUT_CENTS} is the decimal the client wrote, and that string is
 * converted digit by digit. Never `value * 100`: 0.29 * 100 is 28.999999999999996.
 *
 * @throws RangeError for NaN, ±Infinity, a negative amount, more than two decimal places (0.005,
 *   1e-7, 0.1 + 0.2), exponent notation, any other text, or an amount above MAX_DOLLAR_INPUT_CENTS.
 *   Zero is accepted.
 */
export function parseDollarsToCents(value: number | string): Cents {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`dollar amount is not finite: ${value}`);
    if (value < 0) throw new RangeError(`dollar amount is negative: ${value}`);
    // -0 prints as "0"; exponent forms ("1e-7", "1e+21") fail the grammar below, which is right: they
    // have more than two places or exceed the cap.
    text = String(value);
  } else {
    text = value;
  }
  if (!DOLLARS.test(text)) {
    throw new RangeError(`not a non-negative dollar amount with at most 2 decimal places: ${JSON.stringify(text)}`);
  }
  const cents = parseDecimalToCents(text);
  if (cents > MAX_DOLLAR_INPUT_CENTS) throw new RangeError(`dollar amount too large: ${text}`);
  return cents;
}
