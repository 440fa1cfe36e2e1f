// Splitting an amount of cents into parts that add up to it exactly (largest-remainder / Hamilton method).
// Owns the arithmetic only; which pool, which fee and reserve rates, and what is stored belong to settlements.
//
// Rounding rule source: SPEC.md, "Waterfall rule: feeCents + reserveCents + residualCents equals poolCents
// exactly, with no rounding drift", and STYLE.md section 6 ("Splits use a largest-remainder allocation whose
// parts always add up to the total"). Rounding each part on its own can drift a cent either way; handing out
// the leftover cents by largest remainder cannot, and keeps every part within one cent of its exact share.

/**
 * Splits `totalCents` in proportion to `weights`. Each part is its exact share `total × wᵢ / Σw` rounded
 * down, and the cents left over go one each to the parts with the largest fractional remainders. Equal
 * remainders go to the earlier weight, so the result is deterministic and callers choose the tie order by
 * the order of `weights`.
 *
 * Guarantees: the parts sum to `totalCents`; every part is ≥ 0; every part is the floor or the ceiling of
 * its exact share (so within one cent of it); a zero weight gets 0.
 *
 * @throws RangeError for a negative total, no weights, a negative weight, or weights summing to 0.
 */
export function allocateLargestRemainder(totalCents: bigint, weights: readonly bigint[]): bigint[] {
  if (totalCents < 0n) throw new RangeError('total to allocate must not be negative');
  if (weights.length === 0) throw new RangeError('at least one weight is required');
  let weightSum = 0n;
  for (const weight of weights) {
    if (weight < 0n) throw new RangeError('weights must not be negative');
    weightSum += weight;
  }
  if (weightSum === 0n) throw new RangeError('weights must not all be zero');

  // Exact share i = (total × wᵢ) / Σw; bigint division truncates, which is floor for non-negative values.
  const parts = weights.map((weight) => (totalCents * weight) / weightSum);
  const remainders = weights.map((weight) => (totalCents * weight) % weightSum);
  let leftover = totalCents - parts.reduce((sum, part) => sum + part, 0n);

  // Stable by index on equal remainders. Leftover < number of non-zero remainders, so nobody gets two cents
  // and a zero remainder (a zero weight or an exact share) never gets one.
  const order = weights.map((_, index) => index);
  order.sort((a, b) => {
    const ra = remainders[a] ?? 0n;
    const rb = remainders[b] ?? 0n;
    return ra === rb ? a - b : ra > rb ? -1 : 1;
  });
  for (const index of order) {
    if (leftover === 0n) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    leftover -= 1n;
  }
  return parts;
}

export type Waterfall = { poolCents: bigint; feeCents: bigint; reserveCents: bigint; residualCents: bigint };

const BPS_PER_WHOLE = 10_000;

/**
 * The settlement waterfall: the platform fee and the reserve as basis points of the pool, the residual is
 * what is left. Largest-remainder over [fee, reserve, residual], so the three always sum to `poolCents`
 * (SPEC waterfall rule), each within one cent of `total × bps / 10000`. On an exact tie for a leftover cent
 * the waterfall order decides: fee, then reserve, then residual.
 *
 * @throws RangeError for a negative total, non-integer or negative bps, or feeBps + reserveBps > 10000.
 */
export function allocateByBasisPoints(totalCents: bigint, shares: { feeBps: number; reserveBps: number }): Waterfall {
  const { feeBps, reserveBps } = shares;
  for (const [name, bps] of [
    ['feeBps', feeBps],
    ['reserveBps', reserveBps],
  ] as const) {
    if (!Number.isSafeInteger(bps) || bps < 0) throw new RangeError(`${name} must be a non-negative integer`);
  }
  if (feeBps + reserveBps > BPS_PER_WHOLE) throw new RangeError('feeBps + reserveBps must not exceed 10000');
  if (totalCents < 0n) throw new RangeError('pool must not be negative');

  const residualBps = BPS_PER_WHOLE - feeBps - reserveBps;
  const [feeCents = 0n, reserveCents = 0n, residualCents = 0n] = allocateLargestRemainder(totalCents, [
    BigInt(feeBps),
    BigInt(reserveBps),
    BigInt(residualBps),
  ]);
  return { poolCents: totalCents, feeCents, reserveCents, residualCents };
}
