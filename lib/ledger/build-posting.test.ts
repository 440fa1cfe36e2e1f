import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateByBasisPoints } from '../money/allocate';
import { asCents } from '../money/cents';
import { buildPosting, credit, debit, type LedgerLine } from './build-posting';
import { LEDGER_ACCOUNTS } from './ledger-accounts';

const sum = (lines: readonly LedgerLine[]) => lines.reduce((total, line) => total + line.amountCents, 0n);

describe('debit and credit', () => {
  it('write debits as positive and credits as negative cents', () => {
    expect(debit(LEDGER_ACCOUNTS.cash, 12_500n)).toEqual({ account: 'assets:cash', amountCents: 12_500n });
    expect(credit(LEDGER_ACCOUNTS.patientReceivable, 12_500n)).toEqual({
      account: 'assets:patient-receivable',
      amountCents: -12_500n,
    });
  });

  it('accept branded Cents as well as bigint', () => {
    expect(debit(LEDGER_ACCOUNTS.fbo, asCents(300))).toEqual({ account: 'assets:fbo', amountCents: 300n });
    expect(credit(LEDGER_ACCOUNTS.fbo, asCents(300))).toEqual({ account: 'assets:fbo', amountCents: -300n });
  });

  it.each<[string, bigint | number]>([
    ['zero', 0n],
    ['a negative amount', -5n],
    ['a negative Cents', -5],
    ['a fractional number', 1.5],
    ['NaN', NaN],
  ])('refuse %s with a RangeError', (_label, amount) => {
    expect(() => debit(LEDGER_ACCOUNTS.cash, amount as bigint)).toThrow(RangeError);
    expect(() => credit(LEDGER_ACCOUNTS.cash, amount as bigint)).toThrow(RangeError);
  });
});

describe('buildPosting', () => {
  it('accepts a patient payment: cash in, receivable down', () => {
    const lines = [debit(LEDGER_ACCOUNTS.cash, 12_500n), credit(LEDGER_ACCOUNTS.patientReceivable, 12_500n)];
    expect(buildPosting(lines)).toEqual(lines);
  });

  it('accepts a multi-line settlement posting built from the waterfall', () => {
    const { poolCents, feeCents, reserveCents, residualCents } = allocateByBasisPoints(1_000_001n, {
      feeBps: 250,
      reserveBps: 1000,
    });
    const posting = buildPosting([
      debit(LEDGER_ACCOUNTS.fbo, poolCents),
      credit(LEDGER_ACCOUNTS.feeRevenue, feeCents),
      credit(LEDGER_ACCOUNTS.reserve, reserveCents),
      credit(LEDGER_ACCOUNTS.advancesPayable, residualCents),
    ]);
    expect(sum(posting)).toBe(0n);
    expect(posting).toHaveLength(4);
  });

  it('returns a copy, so later changes to the input cannot unbalance what was checked', () => {
    const lines = [debit(LEDGER_ACCOUNTS.cash, 100n), credit(LEDGER_ACCOUNTS.claimsReceivable, 100n)];
    const posting = buildPosting(lines);
    (lines[0] as LedgerLine).amountCents = 999n;
    expect(posting[0]).toEqual({ account: 'assets:cash', amountCents: 100n });
  });

  it.each<[string, LedgerLine[], RegExp]>([
    ['an empty posting', [], /at least two lines/],
    ['a single line', [debit(LEDGER_ACCOUNTS.cash, 100n)], /at least two lines/],
    [
      'an unbalanced posting',
      [debit(LEDGER_ACCOUNTS.cash, 100n), credit(LEDGER_ACCOUNTS.patientReceivable, 99n)],
      /unbalanced posting: debits and credits differ by 1 cents/,
    ],
    [
      'two debits',
      [debit(LEDGER_ACCOUNTS.cash, 100n), debit(LEDGER_ACCOUNTS.patientReceivable, 100n)],
      /unbalanced posting/,
    ],
    [
      'a zero-amount line, even when the rest balances',
      [
        debit(LEDGER_ACCOUNTS.cash, 100n),
        credit(LEDGER_ACCOUNTS.patientReceivable, 100n),
        { account: LEDGER_ACCOUNTS.feeRevenue, amountCents: 0n },
      ],
      /zero-amount line on revenue:platform-fees/,
    ],
    [
      'a line without an account',
      [{ account: ' ', amountCents: 100n }, credit(LEDGER_ACCOUNTS.cash, 100n)],
      /needs an account/,
    ],
  ])('refuses %s with a RangeError', (_label, lines, message) => {
    expect(() => buildPosting(lines)).toThrow(RangeError);
    expect(() => buildPosting(lines)).toThrow(message);
  });

  it('refuses a number amount that slipped past the types', () => {
    const lines = [
      { account: LEDGER_ACCOUNTS.cash, amountCents: 100 as unknown as bigint },
      credit(LEDGER_ACCOUNTS.patientReceivable, 100n),
    ];
    expect(() => buildPosting(lines)).toThrow(/bigint/);
  });

  const accounts = fc.constantFrom(...Object.values(LEDGER_ACCOUNTS));
  const nonZeroCents = fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.bigInt({ min: -(10n ** 15n), max: -1n }));
  // Small amounts (zero included) so that balanced and nearly balanced postings both come up often.
  const anyLines = fc.array(fc.record({ account: accounts, amountCents: fc.bigInt({ min: -3n, max: 3n }) }), {
    maxLength: 6,
  });

  it('only ever accepts postings that balance, have two or more lines and no zero line', () => {
    fc.assert(
      fc.property(anyLines, (lines) => {
        let posting: LedgerLine[];
        try {
          posting = buildPosting(lines);
        } catch (error) {
          expect(error).toBeInstanceOf(RangeError);
          return;
        }
        expect(sum(posting)).toBe(0n);
        expect(posting.length).toBeGreaterThanOrEqual(2);
        expect(posting.every((line) => line.amountCents !== 0n)).toBe(true);
        expect(posting).toEqual(lines);
      }),
    );
  });

  it('accepts every posting whose lines are non-zero and sum to zero', () => {
    // Balanced by construction: the last line offsets the others (skipped when that offset is zero).
    fc.assert(
      fc.property(
        fc.array(fc.record({ account: accounts, amountCents: nonZeroCents }), { minLength: 1, maxLength: 6 }),
        accounts,
        (lines, offsetAccount) => {
          const offset = -sum(lines);
          fc.pre(offset !== 0n);
          const balanced = [...lines, { account: offsetAccount, amountCents: offset }];
          const posting = buildPosting(balanced);
          expect(sum(posting)).toBe(0n);
          expect(posting).toEqual(balanced);
        },
      ),
    );
  });
});
