// CLP02 to claim state, the ledger lines of a claim and of a PLB and remark codes: pure rules.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPosting } from '../ledger/build-posting';
import { claimPayment, remittanceArbitrary, reversalOf, x12Of } from '@/test/support/remittances';
import { claimOutcome, outcomeReason } from './claim-outcome';
import { scan835s } from '../x12/read-835';
import { claimsWithRemarks } from './read-remarks';
import { claimLedgerLines, providerLedgerLines } from './remittance-ledger-lines';
import type { Cents } from '../money/cents';

const paid = claimPayment('c1', '1', [
  {
    procedureCode: '99213',
    chargeCents: 10_000,
    adjustments: [
      ['CO', '45', 2_000],
      ['PR', '1', 1_000],
    ],
  },
]);

describe('claimOutcome', () => {
  it.each([
    ['1', paid, 'paid'],
    ['19', { ...paid, statusCode: '19' }, 'paid'],
    ['4', { ...paid, statusCode: '4' }, 'denied'],
    ['23', { ...paid, statusCode: '23' }, 'denied'],
    ['22', reversalOf(paid), 'reversed'],
    ['25', { ...paid, statusCode: '25' }, null],
    [
      '1 with a refused line',
      claimPayment('c1', '1', [
        { procedureCode: '99213', chargeCents: 10_000, adjustments: [['CO', '45', 2_000]] },
        { procedureCode: '81002', chargeCents: 5_000, adjustments: [['CO', '97', 5_000]] },
      ]),
      'partially_paid',
    ],
    [
      '1 with everything adjusted away',
      claimPayment('c1', '1', [{ procedureCode: '99213', chargeCents: 10_000, adjustments: [['CO', '50', 10_000]] }]),
      'denied',
    ],
    [
      '1 paid nothing, all to the deductible',
      claimPayment('c1', '1', [{ procedureCode: '99213', chargeCents: 10_000, adjustments: [['PR', '1', 10_000]] }]),
      'paid',
    ],
  ] as const)('CLP02 %s', (_label, claim, outcome) => {
    expect(claimOutcome(claim)).toBe(outcome);
  });

  it('says why in words', () => {
    const denied = claimPayment('c1', '4', [
      { procedureCode: '99213', chargeCents: 100, adjustments: [['CO', '16', 100]] },
    ]);
    expect(outcomeReason(denied, 'denied')).toBe(
      'CO-16: Claim/service lacks information or has submission/billing error(s).',
    );
    expect(outcomeReason(paid, 'paid')).toBeNull();
  });
});

describe('ledger lines', () => {
  it('post the worked example and its exact opposite for the reversal', () => {
    expect(claimLedgerLines(paid)).toEqual([
      { account: 'assets:era-clearing', amountCents: 7_000n },
      { account: 'expenses:contractual-adjustments', amountCents: 2_000n },
      { account: 'assets:patient-receivable', amountCents: 1_000n },
      { account: 'assets:claims-receivable', amountCents: -10_000n },
    ]);
    expect(claimLedgerLines(reversalOf(paid))).toEqual(
      claimLedgerLines(paid).map((l) => ({ ...l, amountCents: -l.amountCents })),
    );
  });

  it('post PLB with the TR3 sign: positive reduces the payment, L6 interest adds to it', () => {
    expect(
      providerLedgerLines([
        { reason: 'L6', reference: null, amountCents: -75 as Cents },
        { reason: 'WO', reference: 'X', amountCents: 1_500 as Cents },
      ]),
    ).toEqual([
      { account: 'revenue:payer-interest', amountCents: -75n },
      { account: 'assets:era-clearing', amountCents: -1_425n },
      { account: 'liabilities:payer-recoupments', amountCents: 1_500n },
    ]);
  });

  it('balance for any balanced 835, and era-clearing nets to BPR02', () => {
    fc.assert(
      fc.property(remittanceArbitrary(['a', 'b', 'c']), (remittance) => {
        let clearing = 0n;
        for (const lines of [
          ...remittance.claims.map(claimLedgerLines),
          providerLedgerLines(remittance.providerAdjustments),
        ]) {
          if (lines.length > 0) buildPosting(lines);
          for (const line of lines) if (line.account === 'assets:era-clearing') clearing += line.amountCents;
        }
        expect(clearing).toBe(BigInt(remittance.paymentCents));
      }),
    );
  });
});

describe('claimsWithRemarks', () => {
  it('reads MOA remarks at claim level and LQ*HE at line level, per CLP, beside the claim', () => {
    const x12 = x12Of({
      ...{
        payerId: 'P',
        payerName: 'P',
        payeeNpi: null,
        traceNumber: 'T',
        paymentMethod: 'ACH',
        paymentDate: '2026-11-20',
      },
      paymentCents: 7_000 as Cents,
      claims: [paid],
      providerAdjustments: [],
    })
      .replace('NM1*QC', 'MOA***MA130*N4~\nNM1*QC')
      .replace(/(SVC\*[^~]*~\n)/, '$1LQ*HE*N130~\n')
      .replace(/SE\*(\d+)\*/, (_m, n) => `SE*${Number(n) + 2}*`);
    const [scanned] = scan835s(x12);
    expect([...claimsWithRemarks(x12, scanned!)]).toMatchObject([
      {
        claim: { claimId: 'c1' },
        remarks: { claim: ['MA130', 'N4'], lines: [['N130']], text: expect.stringMatching(/^CLP\*c1\*1\*/) },
      },
    ]);
  });
});
