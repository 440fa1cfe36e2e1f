import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateByBasisPoints, allocateLargestRemainder } from './allocate';

const sum = (values: readonly bigint[]) => values.reduce((total, value) => total + value, 0n);
const abs = (value: bigint) => (value < 0n ? -value : value);

const totals = fc.bigInt({ min: 0n, max: 10n ** 18n });
const weightLists = fc
  .array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 1, maxLength: 12 })
  .filter((weights) => sum(weights) > 0n);
const bpsPairs = fc
  .tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }))
  .filter(([fee, reserve]) => fee + reserve <= 10_000);

describe('allocateLargestRemainder', () => {
  it.each<[bigint, bigint[], bigint[]]>([
    [100n, [1n, 1n, 1n], [34n, 33n, 33n]],
    [2n, [1n, 1n, 1n], [1n, 1n, 0n]],
    [0n, [3n, 7n], [0n, 0n]],
    [10n, [0n, 1n], [0n, 10n]],
    [101n, [50n, 50n], [51n, 50n]],
    // 1000 × 0.3333… = 333.33, 1000 × 0.6666… = 666.66: the larger remainder takes the leftover cent.
    [1000n, [1n, 2n], [333n, 667n]],
    [7n, [5n, 3n, 2n], [4n, 2n, 1n]],
  ])('splits %s cents by weights %s into %s', (total, weights, expected) => {
    expect(allocateLargestRemainder(total, weights)).toEqual(expected);
  });

  it.each<[string, bigint, bigint[]]>([
    ['a negative total', -1n, [1n]],
    ['no weights', 100n, []],
    ['a negative weight', 100n, [2n, -1n]],
    ['all-zero weights', 100n, [0n, 0n]],
  ])('rejects %s with a RangeError', (_label, total, weights) => {
    expect(() => allocateLargestRemainder(total, weights)).toThrow(RangeError);
  });

  it('always sums to the total, with parts that are non-negative and within a cent of their exact share', () => {
    fc.assert(
      fc.property(totals, weightLists, (total, weights) => {
        const parts = allocateLargestRemainder(total, weights);
        const weightSum = sum(weights);
        expect(parts).toHaveLength(weights.length);
        expect(sum(parts)).toBe(total);
        parts.forEach((part, index) => {
          const weight = weights[index] ?? 0n;
          expect(part >= 0n).toBe(true);
          // |part − total·w/W| < 1  ⇔  |part·W − total·w| < W, kept in integers.
          expect(abs(part * weightSum - total * weight) < weightSum).toBe(true);
          if (weight === 0n) expect(part).toBe(0n);
        });
      }),
    );
  });

  it('hands the extra cents of an even split to the earliest parts', () => {
    fc.assert(
      fc.property(totals, fc.integer({ min: 1, max: 12 }), (total, count) => {
        const parts = allocateLargestRemainder(
          total,
          Array.from({ length: count }, () => 1n),
        );
        // Equal shares differ by at most a cent and the extra cents go to the first parts.
        const sorted = [...parts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
        expect(parts).toEqual(sorted);
        expect((parts[0] ?? 0n) - (parts[parts.length - 1] ?? 0n) <= 1n).toBe(true);
      }),
    );
  });
});

describe('allocateByBasisPoints', () => {
  it('splits a pool into fee, reserve and residual that add up to it exactly', () => {
    // $10,000.01 at 2.5 % fee and 10 % reserve: exact shares 25000.025, 100000.1, 875000.875.
    expect(allocateByBasisPoints(1_000_001n, { feeBps: 250, reserveBps: 1000 })).toEqual({
      poolCents: 1_000_001n,
      feeCents: 25_000n,
      reserveCents: 100_000n,
      residualCents: 875_001n,
    });
  });

  it('breaks an exact tie for the leftover cent in waterfall order: fee, reserve, residual', () => {
    expect(allocateByBasisPoints(1n, { feeBps: 5000, reserveBps: 5000 })).toEqual({
      poolCents: 1n,
      feeCents: 1n,
      reserveCents: 0n,
      residualCents: 0n,
    });
    expect(allocateByBasisPoints(2n, { feeBps: 3334, reserveBps: 3333 })).toEqual({
      poolCents: 2n,
      feeCents: 1n,
      reserveCents: 1n,
      residualCents: 0n,
    });
  });

  it.each([
    [
      { feeBps: 0, reserveBps: 0 },
      { feeCents: 0n, reserveCents: 0n, residualCents: 12_345n },
    ],
    [
      { feeBps: 10_000, reserveBps: 0 },
      { feeCents: 12_345n, reserveCents: 0n, residualCents: 0n },
    ],
    [
      { feeBps: 0, reserveBps: 10_000 },
      { feeCents: 0n, reserveCents: 12_345n, residualCents: 0n },
    ],
    [
      { feeBps: 1, reserveBps: 1 },
      { feeCents: 1n, reserveCents: 1n, residualCents: 12_343n },
    ],
  ])('handles the edge rates %j', (shares, expected) => {
    expect(allocateByBasisPoints(12_345n, shares)).toEqual({ poolCents: 12_345n, ...expected });
  });

  it('splits an empty pool into zeros', () => {
    expect(allocateByBasisPoints(0n, { feeBps: 300, reserveBps: 500 })).toEqual({
      poolCents: 0n,
      feeCents: 0n,
      reserveCents: 0n,
      residualCents: 0n,
    });
  });

  it.each<[string, bigint, { feeBps: number; reserveBps: number }]>([
    ['rates over 100 %', 100n, { feeBps: 6000, reserveBps: 4001 }],
    ['a negative fee', 100n, { feeBps: -1, reserveBps: 0 }],
    ['a negative reserve', 100n, { feeBps: 0, reserveBps: -1 }],
    ['a fractional fee', 100n, { feeBps: 2.5, reserveBps: 0 }],
    ['a NaN reserve', 100n, { feeBps: 0, reserveBps: NaN }],
    ['an infinite fee', 100n, { feeBps: Infinity, reserveBps: 0 }],
    ['a negative pool', -1n, { feeBps: 100, reserveBps: 100 }],
  ])('rejects %s with a RangeError', (_label, total, shares) => {
    expect(() => allocateByBasisPoints(total, shares)).toThrow(RangeError);
  });

  it('always sums to the pool, with every part non-negative and within a cent of its exact share', () => {
    fc.assert(
      fc.property(totals, bpsPairs, (total, [feeBps, reserveBps]) => {
        const { poolCents, feeCents, reserveCents, residualCents } = allocateByBasisPoints(total, {
          feeBps,
          reserveBps,
        });
        expect(poolCents).toBe(total);
        expect(feeCents + reserveCents + residualCents).toBe(poolCents);
        const residualBps = 10_000 - feeBps - reserveBps;
        for (const [part, bps] of [
          [feeCents, feeBps],
          [reserveCents, reserveBps],
          [residualCents, residualBps],
        ] as const) {
          expect(part >= 0n).toBe(true);
          expect(abs(part * 10_000n - total * BigInt(bps)) < 10_000n).toBe(true);
        }
      }),
    );
  });
});
