// The one decimal reader: unsigned decimal text to its digits and to integer cents, digit by digit, so no
// binary fraction ever exists ("0.29" is 29 cents, not 28.999999). Shared by cents.ts and lib/x12's amounts
// and percents; what a caller accepts beyond this grammar (a sign, how many places, a cap) is the caller's rule.

/** Digits either side of the point: "25.00" is { whole: '25', fraction: '00' }, ".2" { whole: '', fraction: '2' }. */
export type Decimal = { whole: string; fraction: string };

/** ASCII digits with at most one point and at least one digit ("1500", "25.00", ".2", "3."); null for anything else. */
export function readDecimal(text: string): Decimal | null {
  const dot = text.indexOf('.');
  const whole = dot === -1 ? text : text.slice(0, dot);
  const fraction = dot === -1 ? '' : text.slice(dot + 1);
  if (whole === '' && fraction === '') return null;
  if (!isDigits(whole) || !isDigits(fraction)) return null;
  return { whole, fraction };
}

/**
 * The decimal in integer cents. Places past the second must be zeros ("25.000" is 2500); null otherwise, since
 * a fraction of a cent is not money. Exact up to Number.MAX_SAFE_INTEGER; above it the result is only known to
 * be above it, so callers that accept long digit runs compare with it.
 */
export function decimalToCents({ whole, fraction }: Decimal): number | null {
  for (let i = 2; i < fraction.length; i++) if (fraction.charCodeAt(i) !== ZERO) return null;
  let cents = 0;
  for (let i = 0; i < whole.length; i++) cents = cents * 10 + (whole.charCodeAt(i) - ZERO);
  for (let i = 0; i < 2; i++) cents = cents * 10 + (i < fraction.length ? fraction.charCodeAt(i) - ZERO : 0);
  return cents;
}

const ZERO = 48; // '0'

function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < ZERO || c > ZERO + 9) return false;
  }
  return true;
}
