// Behaviour of the decimal ⇄ cents codec as cents.ts implements it today, including the lenient corners
// (a trailing "." and surrounding whitespace are accepted) so a change to them is a visible decision.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountTooLargeMessage,
  asCents,
  formatCentsAsDecimal,
  MAX_AMOUNT_CENTS,
  MAX_RAIL_DAY_CENTS,
  MAX_SAFE_SUM_CENTS,
  parseDecimalToCents,
} from './cents';

/** The canonical two-place rendering of a decimal string, computed on the digits alone (no cents.ts). */
function canonicalTwoPlaces(sign: string, whole: string, fraction: string): string {
  const wholeDigits = whole.replace(/^0+(?=\d)/, '');
  const fractionDigits = fraction.padEnd(2, '0');
  const isZero = /^0+$/.test(wholeDigits + fractionDigits);
  return `${sign && !isZero ? '-' : ''}${wholeDigits}.${fractionDigits}`;
}

const digit = fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9');
// Up to 13 whole digits keeps every value inside safe-integer cents (9_007_199_254_740_991).
const wholeDigits = fc.string({ unit: digit, minLength: 1, maxLength: 13 });
const fractionDigits = fc.string({ unit: digit, minLength: 0, maxLength: 2 });
const sign = fc.constantFrom('', '-');

describe('parseDecimalToCents', () => {
  it('reads "0.29" as 29 cents, not the float 28.999…', () => {
    expect(parseDecimalToCents('0.29')).toBe(29);
    expect(0.29 * 100).not.toBe(29); // why the codec exists
  });

  it.each([
    ['0', 0],
    ['1500', 150000],
    ['1500.5', 150050],
    ['1500.05', 150005],
    ['-0.29', -29],
    ['-0', 0],
    ['-0.00', 0],
    ['007.10', 710],
    ['1.', 100],
    [' 12.34 ', 1234],
    ['90071992547409.91', 9007199254740991],
    ['-90071992547409.91', -9007199254740991],
  ])('reads %j as %d cents', (input, expected) => {
    const cents = parseDecimalToCents(input);
    expect(cents).toBe(expected);
    expect(Object.is(cents, -0)).toBe(false);
  });

  it.each([
    ['three decimal places', '1.005'],
    ['exponent notation', '1e3'],
    ['upper-case exponent', '1.5E2'],
    ['empty string', ''],
    ['only whitespace', '   '],
    ['a lone point', '.'],
    ['no whole part', '.5'],
    ['a plus sign', '+1.00'],
    ['two signs', '--1'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['a thousands separator', '1,000.00'],
    ['a currency symbol', '$1.00'],
    ['a decimal comma', '1,50'],
    ['hex', '0x10'],
    ['non-ASCII digits', '١٢'],
    ['inner whitespace', '1 000'],
    ['one cent above safe-integer cents', '90071992547409.92'],
  ])('rejects %s (%j) with a RangeError', (_label, input) => {
    expect(() => parseDecimalToCents(input)).toThrow(RangeError);
  });

  it('reads every decimal string of up to two places as its exact value in cents', () => {
    fc.assert(
      fc.property(sign, wholeDigits, fractionDigits, (s, whole, fraction) => {
        const input = fraction === '' ? `${s}${whole}` : `${s}${whole}.${fraction}`;
        const expected = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
        expect(BigInt(parseDecimalToCents(input))).toBe(s && expected !== 0n ? -expected : expected);
      }),
    );
  });

  it('round-trips every decimal string of up to two places through formatCentsAsDecimal', () => {
    fc.assert(
      fc.property(sign, wholeDigits, fractionDigits, (s, whole, fraction) => {
        const input = fraction === '' ? `${s}${whole}` : `${s}${whole}.${fraction}`;
        const formatted = formatCentsAsDecimal(parseDecimalToCents(input));
        expect(formatted).toBe(canonicalTwoPlaces(s, whole, fraction));
        expect(parseDecimalToCents(formatted)).toBe(parseDecimalToCents(input));
      }),
    );
  });

  it('rejects every string with a third decimal place', () => {
    fc.assert(
      fc.property(sign, wholeDigits, fc.string({ unit: digit, minLength: 3, maxLength: 8 }), (s, whole, fraction) => {
        expect(() => parseDecimalToCents(`${s}${whole}.${fraction}`)).toThrow(RangeError);
      }),
    );
  });
});

describe('formatCentsAsDecimal', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [-5, '-0.05'],
    [29, '0.29'],
    [150000, '1500.00'],
    [-150050, '-1500.50'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
    [-0, '0.00'],
  ])('writes %d cents as %j', (cents, expected) => {
    expect(formatCentsAsDecimal(cents)).toBe(expected);
  });

  it.each([[0.5], [NaN], [Infinity], [Number.MAX_SAFE_INTEGER + 1]])('rejects %d with a RangeError', (cents) => {
    expect(() => formatCentsAsDecimal(cents)).toThrow(RangeError);
  });

  it('is inverted by parseDecimalToCents for every safe-integer amount', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (cents) => {
        expect(parseDecimalToCents(formatCentsAsDecimal(cents))).toBe(cents);
      }),
    );
  });
});

describe('asCents', () => {
  it('brands a safe integer unchanged', () => {
    expect(asCents(-42)).toBe(-42);
  });

  it.each([[1.5], [NaN], [-Infinity], [2 ** 53]])('rejects %d with a RangeError', (value) => {
    expect(() => asCents(value)).toThrow(RangeError);
  });
});

describe('MAX_AMOUNT_CENTS', () => {
  it('is $1bn, and 90,071 amounts at the maximum still sum to a safe integer while 90,072 would not', () => {
    expect(formatCentsAsDecimal(MAX_AMOUNT_CENTS)).toBe('1000000000.00');
    expect(MAX_SAFE_SUM_CENTS).toBe(Number.MAX_SAFE_INTEGER);
    expect(Number.isSafeInteger(90_071 * MAX_AMOUNT_CENTS)).toBe(true);
    expect(90_072 * MAX_AMOUNT_CENTS).toBeGreaterThan(MAX_SAFE_SUM_CENTS);
  });

  it("caps a UTC day's rail postings so two such days still total a safe integer", () => {
    expect(Number.isSafeInteger(2 * MAX_RAIL_DAY_CENTS)).toBe(true);
    expect(Number.isSafeInteger(2 * (MAX_RAIL_DAY_CENTS + 1))).toBe(false);
  });

  it('names the field and the bound in its message', () => {
    expect(amountTooLargeMessage('amountCents')).toBe(
      'amountCents must be at most 100000000000 cents (1,000,000,000.00 USD)',
    );
  });
});
