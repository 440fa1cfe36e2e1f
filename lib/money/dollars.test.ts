import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCentsAsDecimal } from './cents';
import { MAX_DOLLAR_INPUT_CENTS, parseDollarsToCents } from './dollars';

describe('parseDollarsToCents', () => {
  it.each([
    [125.5, 12550],
    [125.55, 12555],
    [0.29, 29],
    [1.15, 115],
    [0.07, 7],
    [0, 0],
    [-0, 0],
    [100, 10000],
    [9999999999999.99, MAX_DOLLAR_INPUT_CENTS],
  ])('converts the JSON number %d to %d cents exactly', (dollars, cents) => {
    const result = parseDollarsToCents(dollars);
    expect(result).toBe(cents);
    expect(Object.is(result, -0)).toBe(false);
  });

  it('gets right the amounts a float multiply gets wrong', () => {
    // The reason for the string route: these are the classic binary64 artefacts.
    expect(Math.trunc(0.29 * 100)).toBe(28);
    expect(Math.trunc(1.15 * 100)).toBe(114);
    expect(parseDollarsToCents(0.29)).toBe(29);
    expect(parseDollarsToCents(1.15)).toBe(115);
  });

  it('reads a JSON body number as the text the client wrote', () => {
    const { totalCharge } = JSON.parse('{"totalCharge": 125.50}') as { totalCharge: number };
    expect(parseDollarsToCents(totalCharge)).toBe(12550);
  });

  it.each([
    ['125.5', 12550],
    ['125.55', 12555],
    ['0', 0],
    ['0.29', 29],
    ['9999999999999.99', MAX_DOLLAR_INPUT_CENTS],
  ])('converts the string %j to %d cents', (dollars, cents) => {
    expect(parseDollarsToCents(dollars)).toBe(cents);
  });

  it.each<[string, number | string]>([
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['a negative amount', -1],
    ['a negative cent', -0.01],
    ['a third decimal place', 0.005],
    ['a third decimal place on a larger amount', 125.555],
    ['a tiny amount in exponent form', 1e-7],
    ['float noise from addition', 0.1 + 0.2],
    ['a number above the exact-precision cap', 10000000000000],
    ['a huge number in exponent form', 1e21],
    ['MAX_VALUE', Number.MAX_VALUE],
    ['a number whose double lost the cents the client wrote', 90071992547409.91],
    ['an empty string', ''],
    ['a string with a sign', '-1.00'],
    ['a string with a plus sign', '+1.00'],
    ['a string with three places', '1.005'],
    ['a string in exponent form', '1e2'],
    ['a string with a trailing point', '1.'],
    ['a string without a whole part', '.5'],
    ['a string with a leading zero', '01.00'],
    ['a string with whitespace', ' 1.00'],
    ['the string NaN', 'NaN'],
    ['a string with a currency symbol', '$1.00'],
    ['a string with a thousands separator', '1,000'],
    ['a string above the cap', '10000000000000.00'],
    ['a string above safe-integer cents', '90071992547409.92'],
  ])('rejects %s with a RangeError', (_label, value) => {
    expect(() => parseDollarsToCents(value)).toThrow(RangeError);
  });

  it('converts every two-place amount up to the cap exactly when it arrives as a JSON number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_DOLLAR_INPUT_CENTS }), (cents) => {
        const json = formatCentsAsDecimal(cents); // e.g. "125.50", valid JSON number text
        expect(parseDollarsToCents(JSON.parse(json) as number)).toBe(cents);
        expect(parseDollarsToCents(json)).toBe(cents);
      }),
      { numRuns: 2000 },
    );
  });

  it('converts small amounts exactly, where float artefacts are densest', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (cents) => {
        expect(parseDollarsToCents(cents / 100)).toBe(cents);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every amount with a non-zero third decimal place', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 1, max: 9 }), (cents, thousandth) => {
        const text = `${formatCentsAsDecimal(cents)}${thousandth}`;
        expect(() => parseDollarsToCents(Number(text))).toThrow(RangeError);
        expect(() => parseDollarsToCents(text)).toThrow(RangeError);
      }),
    );
  });
});
