import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalToCents, readDecimal } from './decimal';

describe('readDecimal', () => {
  it.each([
    ['1500', { whole: '1500', fraction: '' }],
    ['25.00', { whole: '25', fraction: '00' }],
    ['.2', { whole: '', fraction: '2' }],
    ['3.', { whole: '3', fraction: '' }],
  ])('splits %j at its point', (text, expected) => {
    expect(readDecimal(text)).toEqual(expected);
  });

  it.each(['', '.', '1.2.3', '-5', '+5', ' 5', '1e5', '١٢', 'abc'])('refuses %j', (text) => {
    expect(readDecimal(text)).toBeNull();
  });
});

describe('decimalToCents', () => {
  it.each([
    ['1500', 150000],
    ['25.00', 2500],
    ['.2', 20],
    ['0.29', 29],
    ['25.000', 2500],
    ['3.', 300],
  ])('reads %j as %d cents', (text, cents) => {
    expect(decimalToCents(readDecimal(text)!)).toBe(cents);
  });

  it('refuses a fraction of a cent', () => {
    expect(decimalToCents(readDecimal('12.345')!)).toBeNull();
  });

  it('agrees with integer arithmetic for every two-place amount up to the safe range', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: BigInt(Number.MAX_SAFE_INTEGER) }), (cents) => {
        const text = `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
        expect(decimalToCents(readDecimal(text)!)).toBe(Number(cents));
      }),
    );
  });
});
