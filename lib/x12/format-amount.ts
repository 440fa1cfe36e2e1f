// Integer cents as an X12 R (decimal) amount, written the way the TR3 examples write it: no trailing zeros after
// the point and no point for whole dollars (X12.6 suppresses them), so 15000 is "150", 15050 "150.5", 15025 "150.25".

/** Throws RangeError for anything but a non-negative safe integer. */
export function formatAmount(amountCents: number): string {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0)
    throw new RangeError('amount must be non-negative integer cents');
  const dollars = Math.trunc(amountCents / 100);
  const cents = amountCents % 100;
  if (cents === 0) return String(dollars);
  return cents % 10 === 0 ? `${dollars}.${cents / 10}` : `${dollars}.${String(cents).padStart(2, '0')}`;
}
