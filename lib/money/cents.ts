// Integer cents: the only money unit inside the platform. Decimal strings are converted digit by digit,
// never through a float, so "0.29" is 29 cents and not 28.999999.

declare const centsBrand: unique symbol;
export type Cents = number & { readonly [centsBrand]: true };

const DECIMAL = /^(-)?(\d+)(?:\.(\d{0,2}))?$/;

/** "1500", "1500.5", "-0.29" to cents. Throws RangeError for anything else, including a third decimal place. */
export function parseDecimalToCents(value: string): Cents {
  const match = DECIMAL.exec(value.trim());
  if (!match) throw new RangeError(`not a decimal amount with at most 2 places: ${JSON.stringify(value)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('amount too large');
  const result = Number(cents);
  return (sign && result !== 0 ? -result : result) as Cents;
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
