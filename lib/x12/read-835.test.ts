import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeCarc } from './carc';
import { X12ControlCharacterError } from './control-characters';
import { build835 } from './fixtures/build-835';
import type { Delimiters } from './read-interchange';
import { read835, read835s } from './read-835';
import type { CasAdjustment, ClaimPayment, Remittance, ServicePayment } from './read-remittance';
import { describeRarc } from './rarc';
import { X12ReadError } from './x12-read-error';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');
const paidAndDenied = fixture('835-paid-and-denied.x12');
const reversalAndPlb = fixture('835-reversal-and-plb.x12');

function reasonOf(text: string): string | null {
  try {
    read835s(text);
    return null;
  } catch (error) {
    if (!(error instanceof X12ReadError)) throw error;
    return `${error.kind}: ${error.reason}`;
  }
}

describe('read835', () => {
  it('reads a paid claim with line-level CO-45, PR-1 and PR-2, and a claim-level CO-50 denial', () => {
    expect(read835(paidAndDenied)).toEqual({
      payerId: '60054',
      payerName: 'ACME HEALTH PLAN',
      payeeNpi: '1234567893',
      traceNumber: 'EFT20250316001',
      paymentMethod: 'ACH',
      paymentCents: 8780,
      paymentDate: '2025-03-16',
      claims: [
        {
          claimId: 'clm_paid_0001',
          payerClaimId: 'ACME0000001',
          statusCode: '1',
          chargeCents: 25000,
          paidCents: 8780,
          patientResponsibilityCents: 6195,
          adjustments: [],
          lines: [
            {
              procedureCode: '99213',
              modifiers: ['25'],
              chargeCents: 15000,
              paidCents: 4780,
              units: 1,
              adjustments: [
                { group: 'CO', reason: '45', amountCents: 4025 },
                { group: 'PR', reason: '1', amountCents: 5000 },
                { group: 'PR', reason: '2', amountCents: 1195 },
              ],
            },
            {
              procedureCode: '81002',
              modifiers: [],
              chargeCents: 10000,
              paidCents: 4000,
              units: 1,
              adjustments: [{ group: 'CO', reason: '45', amountCents: 6000 }],
            },
          ],
        },
        {
          claimId: 'clm_denied_0002',
          payerClaimId: 'ACME0000002',
          statusCode: '4',
          chargeCents: 30000,
          paidCents: 0,
          patientResponsibilityCents: 0,
          adjustments: [{ group: 'CO', reason: '50', amountCents: 30000 }],
          lines: [],
        },
      ],
      providerAdjustments: [],
    });
  });

  it('reads a reversal (CLP02 22) with its amounts negative as written, never its units, then the corrected claim', () => {
    const [reversal, corrected] = read835(reversalAndPlb).claims;
    expect(reversal).toMatchObject({
      claimId: 'clm_paid_0001',
      statusCode: '22',
      chargeCents: -25000,
      paidCents: -8780,
      patientResponsibilityCents: -6195,
    });
    expect(reversal!.lines.map((line) => [line.chargeCents, line.paidCents, line.units])).toEqual([
      [-15000, -4780, 1],
      [-10000, -4000, 1],
    ]);
    expect(reversal!.lines[0]!.adjustments).toEqual([
      { group: 'CO', reason: '45', amountCents: -4025 },
      { group: 'PR', reason: '1', amountCents: -5000 },
      { group: 'PR', reason: '2', amountCents: -1195 },
    ]);
    expect(corrected).toMatchObject({
      claimId: 'clm_paid_0001',
      statusCode: '1',
      payerClaimId: 'ACME0000003',
      paidCents: 11780,
      patientResponsibilityCents: 3195,
    });
  });

  it('reads PLB pairs with their references, and a positive PLB amount reduces the payment (TR3 sign)', () => {
    const remittance = read835(reversalAndPlb);
    expect(remittance.providerAdjustments).toEqual([
      { reason: 'L6', reference: 'ACME0000003', amountCents: -75 },
      { reason: 'WO', reference: 'ACME0000009', amountCents: 1500 },
      { reason: 'FB', reference: 'ACME0000010', amountCents: -500 },
    ]);
    // Claims net 30.00; interest -0.75 adds, the recoupment 15.00 takes away, the forward balance -5.00 adds.
    expect(remittance.paymentCents).toBe(3000 - (-75 + 1500 - 500));
    expect(reasonOf(reversalAndPlb.replace('WO:ACME0000009*15', 'WO:ACME0000009*-15'))).toBe(
      'unreadable: does not balance: transaction rule (sum of CLP04 - sum of PLB = BPR02) fails for trace "CHK000777": 30.00 - -20.75 = 50.75, not 20.75',
    );
  });

  it('reads a PLB reason without a reference as a null reference', () => {
    const text = reversalAndPlb.replace('WO:ACME0000009*15', 'WO*15');
    expect(read835(text).providerAdjustments[1]).toEqual({ reason: 'WO', reference: null, amountCents: 1500 });
  });

  it('takes the payer id from TRN03 without exactly one leading 1 when the payer N1 has no N104, and no payee NPI unless N103 is XX', () => {
    expect(read835(reversalAndPlb)).toMatchObject({
      payerId: '512345678',
      payeeNpi: null,
      paymentMethod: 'CHK',
      paymentDate: '2025-03-20',
    });
    expect(read835(reversalAndPlb.replace('TRN*1*CHK000777*1512345678', 'TRN*1*CHK000777*1123456789')).payerId).toBe(
      '123456789',
    );
    expect(read835(reversalAndPlb.replace('TRN*1*CHK000777*1512345678', 'TRN*1*CHK000777*9512345678')).payerId).toBe(
      '9512345678',
    );
  });

  it('reads another delimiter set with a newline as the segment terminator, modifiers, units and CAS at claim and line level', () => {
    const remittance = read835(fixture('835-pipes-newline.x12'));
    expect(remittance).toMatchObject({
      payerId: 'BETA01',
      payeeNpi: '1987654325',
      paymentCents: 8000,
      paymentDate: '2025-04-02',
    });
    const claim = remittance.claims[0]!;
    expect(claim.adjustments).toEqual([{ group: 'PR', reason: '1', amountCents: 500 }]);
    expect(
      claim.lines.map((line) => [line.procedureCode, line.modifiers, line.units, line.adjustments.length]),
    ).toEqual([
      ['97110', ['GP', '59', 'KX'], 3, 2],
      ['99212', [], 1, 1],
    ]);
  });

  it('reads the same object whatever the line endings: ~\\n, ~\\r\\n or none', () => {
    const expected = read835(paidAndDenied);
    expect(read835(paidAndDenied.replaceAll('~\n', '~\r\n'))).toEqual(expected);
    expect(read835(paidAndDenied.replaceAll('~\n', '~'))).toEqual(expected);
  });

  // One claim whose charge and payment are the amount text, and BPR02 the same amount (a negative one written
  // positive with BPR03 D, since BPR02 is never negative), so every rule balances.
  const withAmount = (amount: string) =>
    build835(remittanceOf([claimOf([], 0)]))
      .replace('BPR*I*0*C', `BPR*I*${amount.startsWith('-') ? `${amount.slice(1)}*D` : `${amount}*C`}`)
      .replace('CLP*c1*1*0*0', `CLP*c1*1*${amount}*${amount}`);

  it.each([
    ['150', 15000],
    ['150.5', 15050],
    ['150.05', 15005],
    ['.5', 50],
    ['0.05', 5],
    ['-.75', -75],
    ['-12.3', -1230],
    ['-0', 0],
    ['000150.00', 15000],
  ])('reads the amount %s as %i cents, with or without a point', (amount, cents) => {
    const remittance = read835(withAmount(amount));
    expect(remittance.claims[0]!.paidCents).toBe(cents);
    expect(remittance.paymentCents).toBe(cents);
  });

  it.each([
    ['1.234', 'BPR02 is not an amount: "1.234"'],
    ['1e3', 'BPR02 is not an amount: "1e3"'],
    ['12,50', 'BPR02 is not an amount: "12,50"'],
    [' 5', 'BPR02 is not an amount: " 5"'],
    ['-', 'BPR02 is not an amount: "-"'],
    ['.', 'BPR02 is not an amount: "."'],
    ['1000000000.01', 'BPR02 is larger than 100000000000 cents'],
  ])('refuses the amount %j', (amount, reason) => {
    const text = build835(remittanceOf([claimOf([], 0)])).replace('BPR*I*0*C', `BPR*I*${amount}*C`);
    expect(reasonOf(text)).toBe(`unreadable: ${reason}`);
  });
});

describe('read835 balancing', () => {
  it.each([
    [
      'service line: SVC02 - CAS = SVC03',
      fixture('835-unbalanced.x12'),
      'service line rule (SVC02 - CAS = SVC03) fails for claim "clm_paid_0001" line 2: 100.00 - 60.00 = 40.00, not 41.00',
    ],
    [
      'claim: CLP03 - claim and line CAS = CLP04',
      paidAndDenied.replace('CLP*clm_paid_0001*1*250', 'CLP*clm_paid_0001*1*251'),
      'claim rule (CLP03 - claim and line CAS = CLP04) fails for claim "clm_paid_0001": 251.00 - 162.20 = 88.80, not 87.80',
    ],
    [
      'claim: the sum of SVC03 - claim CAS = CLP04 when the claim has lines',
      paidAndDenied
        .replace('CLP*clm_paid_0001*1*250', 'CLP*clm_paid_0001*1*260')
        .replace('NM1*QC*1*DOE*JANE****MI*W123456789', 'CAS*OA*23*10'),
      'claim rule (sum of SVC03 - claim CAS = CLP04) fails for claim "clm_paid_0001": 87.80 - 10.00 = 77.80, not 87.80',
    ],
    [
      'a claim without lines: CLP03 - claim CAS = CLP04',
      paidAndDenied.replace('CAS*CO*50*300', 'CAS*CO*50*299.99'),
      'claim rule (CLP03 - claim and line CAS = CLP04) fails for claim "clm_denied_0002": 300.00 - 299.99 = 0.01, not 0.00',
    ],
    [
      'transaction: sum of CLP04 - sum of PLB = BPR02',
      paidAndDenied.replace('BPR*I*87.8', 'BPR*I*87.9'),
      'transaction rule (sum of CLP04 - sum of PLB = BPR02) fails for trace "EFT20250316001": 87.80 - 0.00 = 87.80, not 87.90',
    ],
    [
      'transaction: a debit (BPR03 D) is a negative payment',
      reversalAndPlb.replace('BPR*C*20.75*C', 'BPR*C*20.75*D'),
      'transaction rule (sum of CLP04 - sum of PLB = BPR02) fails for trace "CHK000777": 30.00 - 9.25 = 20.75, not -20.75',
    ],
  ])('refuses an 835 that breaks the %s rule, naming the rule and the claim', (_rule, text, reason) => {
    expect(reasonOf(text)).toBe(`unreadable: does not balance: ${reason}`);
  });
});

describe('read835s and read835 on the interchange', () => {
  it('returns each 835 of an interchange; the one-835 reader refuses it', () => {
    const text = fixture('835-two-remittances.x12');
    expect(read835s(text).map((remittance) => [remittance.traceNumber, remittance.paymentCents])).toEqual([
      ['EFT20250316001', 8780],
      ['EFT20250316002', 12000],
    ]);
    expect(() => read835(text)).toThrow('the interchange holds 2 835s; read one 835 per file');
  });

  it.each([
    [
      'an 835 without any CLP (empty)',
      fixture('835-empty.x12'),
      'unreadable: 835 "0001" is empty: it has no claim payment (CLP)',
    ],
    [
      'a truncated 835',
      fixture('835-truncated.x12'),
      'unreadable: truncated segment at the end of the interchange (CAS has no terminator)',
    ],
    ['a 271 instead of an 835', fixture('271-subscriber-ppo.x12'), 'unreadable: transaction set "271" is not an 835'],
    ['a 999 instead of an 835', fixture('999-rejected.x12'), '999: 999 acknowledgment (AK9 R) instead of an 835'],
    [
      'a TA1 instead of an 835',
      fixture('ta1-rejected.x12'),
      expect.stringMatching(/^ta1: interchange rejected with a TA1 instead of an 835/),
    ],
    ['text that is not X12', 'hello', 'unreadable: not X12: the text does not start with an ISA segment'],
    ['an empty file', '', 'unreadable: not X12: the text does not start with an ISA segment'],
    ['an SVC before any CLP', paidAndDenied.replace('LX*1~', 'SVC*HC:99213*1*1~'), 'unreadable: SVC before any CLP'],
    [
      'a missing TRN',
      paidAndDenied.replace('TRN*1*EFT20250316001*1512345678', 'REF*EV*X'),
      'unreadable: no TRN (reassociation trace number) segment',
    ],
    [
      'a payment date that is not a date',
      paidAndDenied.replace('*20250316~', '*20251316~'),
      'unreadable: BPR16 is not a CCYYMMDD date',
    ],
    [
      'a CLP without its paid amount',
      paidAndDenied.replace('CLP*clm_denied_0002*4*300*0', 'CLP*clm_denied_0002*4*300*'),
      'unreadable: CLP04 of claim "clm_denied_0002" is missing',
    ],
  ])('refuses %s with a one-line reason', (_case, text, reason) => {
    expect(reasonOf(text)).toEqual(reason);
  });
});

describe('CARC and RARC descriptions', () => {
  it('describes the codes a clinic meets most in their published words, and others as unknown', () => {
    expect(describeCarc('45')).toBe(
      'Charge exceeds fee schedule/maximum allowable or contracted/legislated fee arrangement.',
    );
    expect(describeCarc('1')).toBe('Deductible Amount');
    expect(describeRarc('N130')).toBe(
      'Consult plan benefit documents/guidelines for information about restrictions for this service.',
    );
    expect([describeCarc('9999'), describeCarc('constructor'), describeRarc('ZZ1')]).toEqual([
      'unknown code',
      'unknown code',
      'unknown code',
    ]);
  });
});

// --- Property tests: any balanced remittance written as an 835 reads back as itself; one altered amount breaks
// the rule that covers it, named with its claim.

const sum = (adjustments: readonly { amountCents: number }[]) =>
  adjustments.reduce((total, adjustment) => total + adjustment.amountCents, 0);
type Cents = Remittance['paymentCents'];

function claimOf(
  lines: ServicePayment[],
  chargeWithoutLines: number,
  adjustments: CasAdjustment[] = [],
  claimId = 'c1',
): ClaimPayment {
  const chargeCents =
    lines.length > 0 ? lines.reduce((total, line) => total + line.chargeCents, 0) : chargeWithoutLines;
  const lineAdjustments = lines.reduce((total, line) => total + sum(line.adjustments), 0);
  return {
    claimId,
    payerClaimId: null,
    statusCode: '1',
    chargeCents: chargeCents as Cents,
    patientResponsibilityCents: 0 as Cents,
    paidCents: (chargeCents - sum(adjustments) - lineAdjustments) as Cents,
    adjustments,
    lines,
  };
}

function remittanceOf(claims: ClaimPayment[], providerAdjustments: Remittance['providerAdjustments'] = []): Remittance {
  return {
    payerId: 'P1',
    payerName: 'PAYER',
    payeeNpi: null,
    traceNumber: 'T1',
    paymentMethod: 'ACH',
    paymentDate: '2025-03-16',
    paymentCents: (claims.reduce((total, claim) => total + claim.paidCents, 0) - sum(providerAdjustments)) as Cents,
    claims,
    providerAdjustments,
  };
}

const amountCents = fc.integer({ min: -10_000_000, max: 10_000_000 }).map((cents) => cents as Cents);
const adjustment = fc.record({
  group: fc.constantFrom('CO', 'PR', 'OA', 'PI', 'CR'),
  reason: fc.constantFrom('1', '2', '3', '45', '50', '97', '253'),
  amountCents,
});
const line = fc
  .record({
    procedureCode: fc.constantFrom('99213', '81002', '97110'),
    modifiers: fc.array(fc.constantFrom('25', '59', 'GP', 'KX'), { maxLength: 4 }),
    chargeCents: amountCents,
    units: fc.integer({ min: 1, max: 12 }),
    adjustments: fc.array(adjustment, { maxLength: 4 }),
  })
  .map((generated): ServicePayment => ({
    ...generated,
    paidCents: (generated.chargeCents - sum(generated.adjustments)) as Cents,
  }));
const claim = fc
  .record({
    claimId: fc.stringMatching(/^[a-z0-9_]{1,20}$/),
    payerClaimId: fc.option(fc.stringMatching(/^[A-Z0-9]{1,12}$/), { nil: null }),
    statusCode: fc.constantFrom('1', '2', '4', '22'),
    patientResponsibilityCents: amountCents,
    adjustments: fc.array(adjustment, { maxLength: 3 }),
    lines: fc.array(line, { maxLength: 4 }),
    chargeWithoutLines: amountCents,
  })
  .map(({ chargeWithoutLines, lines, adjustments, claimId, ...rest }): ClaimPayment => ({
    ...claimOf(lines, chargeWithoutLines, adjustments, claimId),
    ...rest,
  }));
const remittance = fc
  .record({
    claims: fc.array(claim, { minLength: 1, maxLength: 5 }),
    providerAdjustments: fc.array(
      fc.record({
        reason: fc.constantFrom('L6', 'WO', 'FB', '72', 'CS'),
        reference: fc.option(fc.stringMatching(/^[A-Z0-9]{1,12}$/), { nil: null }),
        amountCents,
      }),
      { maxLength: 8 },
    ),
    payerId: fc.stringMatching(/^[A-Z0-9]{1,10}$/),
    payeeNpi: fc.option(fc.stringMatching(/^\d{10}$/), { nil: null }),
    traceNumber: fc.stringMatching(/^[A-Z0-9]{1,20}$/),
    paymentMethod: fc.constantFrom('ACH', 'CHK', 'NON'),
    paymentDate: fc
      .tuple(fc.integer({ min: 2000, max: 2099 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
      .map(([year, month, day]) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`),
  })
  .map(({ claims, providerAdjustments, ...header }): Remittance => ({
    ...remittanceOf(claims, providerAdjustments),
    ...header,
    payerName: 'PAYER',
  }));
const delimiters = fc.constantFrom<Delimiters>(
  { element: '*', repetition: '^', component: ':', segment: '~' },
  { element: '|', repetition: '^', component: '>', segment: '\n' },
  { element: '!', repetition: '{', component: '\\', segment: "'" },
);

describe('read835 properties', () => {
  it('reads any balanced remittance written as an 835 back as itself, whatever the delimiters and line endings', () => {
    fc.assert(
      fc.property(remittance, delimiters, fc.constantFrom('', '\n', '\r\n'), (generated, chosen, lineBreak) => {
        expect(read835(build835(generated, chosen, lineBreak))).toEqual(generated);
      }),
    );
  });

  it('refuses a remittance with one amount altered, naming the rule that covers that amount and its claim', () => {
    fc.assert(
      fc.property(remittance, fc.nat(), fc.constantFrom(1, -1, 100), (generated, pick, delta) => {
        const alterations: { alter: (altered: Remittance) => void; rule: string }[] = [];
        generated.claims.forEach((claim, c) => {
          const name = JSON.stringify(claim.claimId);
          claim.lines.forEach((_line, l) =>
            alterations.push({
              alter: (altered) => {
                altered.claims[c]!.lines[l]!.paidCents = (altered.claims[c]!.lines[l]!.paidCents + delta) as Cents;
              },
              rule: `service line rule (SVC02 - CAS = SVC03) fails for claim ${name} line ${l + 1}:`,
            }),
          );
          alterations.push({
            alter: (altered) => {
              altered.claims[c]!.chargeCents = (altered.claims[c]!.chargeCents + delta) as Cents;
            },
            rule: `claim rule (CLP03 - claim and line CAS = CLP04) fails for claim ${name}:`,
          });
        });
        const transactionRule = `transaction rule (sum of CLP04 - sum of PLB = BPR02) fails for trace ${JSON.stringify(generated.traceNumber)}:`;
        alterations.push({
          alter: (altered) => {
            altered.paymentCents = (altered.paymentCents + delta) as Cents;
          },
          rule: transactionRule,
        });
        generated.providerAdjustments.forEach((_adjustment, p) =>
          alterations.push({
            alter: (altered) => {
              altered.providerAdjustments[p]!.amountCents = (altered.providerAdjustments[p]!.amountCents +
                delta) as Cents;
            },
            rule: transactionRule,
          }),
        );
        const { alter, rule } = alterations[pick % alterations.length]!;
        const altered = structuredClone(generated);
        alter(altered);
        expect(reasonOf(build835(altered))).toContain(`unreadable: does not balance: ${rule}`);
      }),
    );
  });
});

describe('read835s refuses what must never be posted or shown (DECISIONS "Security findings of 2026-11-28")', () => {
  it('refuses a negative BPR02, whatever BPR03 says: the direction is BPR03, never the sign', () => {
    // Balanced as written: the claims net -87.80 and BPR02 says -87.80, so only the sign rule refuses it.
    const negative = paidAndDenied
      .replace('BPR*I*87.8*C*', 'BPR*I*-87.8*C*')
      .replace('CLP*clm_paid_0001*1*250*87.8*', 'CLP*clm_paid_0001*22*-250*-87.8*');
    expect(reasonOf(negative)).toBe(
      'unreadable: BPR02 (total payment) is negative (-87.8): its direction is BPR03 C or D',
    );
    expect(reasonOf(paidAndDenied.replace('BPR*I*87.8*C*', 'BPR*I*-87.8*D*'))).toMatch(
      /^unreadable: BPR02 \(total payment\) is negative/,
    );
    // A zero payment written "-0" is zero, not negative; a debit is written positive with BPR03 D.
    expect(reasonOf(reversalAndPlb.replace('BPR*C*20.75*C', 'BPR*C*20.75*D'))).toMatch(/does not balance/);
  });

  it.each([
    ['BEL', '\u0007', 'U+0007'],
    ['ESC', '\u001b', 'U+001B'],
    ['NUL', '\u0000', 'U+0000'],
    ['a right-to-left override', '\u202e', 'U+202E'],
    ['a first-strong isolate', '\u2068', 'U+2068'],
    ['a zero-width space', '\u200b', 'U+200B'],
    ['DEL', '\u007f', 'U+007F'],
    ['a C1 control', '\u009b', 'U+009B'],
  ])(
    'refuses %s in the payer name (N102), naming it by code point and segment, never echoing the text',
    (_label, character, code) => {
      const text = paidAndDenied.replace('N1*PR*ACME HEALTH PLAN*', `N1*PR*ACME${character} HEALTH PLAN*`);
      const at = text.indexOf(character) + 1;
      let thrown: unknown;
      try {
        read835s(text);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(X12ControlCharacterError);
      expect(thrown).toBeInstanceOf(X12ReadError);
      expect((thrown as X12ReadError).reason).toBe(
        `a control character (${code}) at character ${at}, in segment N1: an 835 holds printable text only`,
      );
      expect((thrown as X12ReadError).reason).not.toContain('ACME');
    },
  );

  it('refuses a control character anywhere, the ISA included, and a lone surrogate', () => {
    expect(reasonOf(`\u0000${paidAndDenied}`)).toMatch(/^unreadable: a control character \(U\+0000\) at character 1/);
    expect(reasonOf(paidAndDenied.replace('ACMEHEALTH     ', 'ACMEHEALTH\u0007    '))).toMatch(
      /\(U\+0007\) at character \d+, in segment ISA/,
    );
    expect(reasonOf(paidAndDenied.replace('CLP*clm_paid_0001*', 'CLP*clm_paid_0001\t*'))).toMatch(
      /\(U\+0009\) at character \d+, in segment CLP/,
    );
    expect(reasonOf(paidAndDenied.replace('ACME HEALTH PLAN', 'ACME \ud800 PLAN'))).toMatch(
      /^unreadable: a lone surrogate \(U\+D800\) at character \d+, in segment N1/,
    );
  });

  it('refuses exactly the code units its rule names: each of the 65,536 tried alone in the payer name', () => {
    const ruled = (code: number) =>
      (code < 0x20 && code !== 0x0a && code !== 0x0d) ||
      (code >= 0x7f && code <= 0x9f) ||
      code === 0x061c ||
      (code >= 0x200b && code <= 0x200f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2060 && code <= 0x2069) ||
      code === 0xfeff ||
      (code >= 0xd800 && code <= 0xdfff); // alone, a surrogate is not text
    const refused: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const text = paidAndDenied.replace(
        'N1*PR*ACME HEALTH PLAN*',
        `N1*PR*ACME${String.fromCharCode(code)}HEALTH PLAN*`,
      );
      try {
        read835s(text);
      } catch (error) {
        if (error instanceof X12ControlCharacterError) refused.push(code);
      }
    }
    expect(refused).toEqual(Array.from({ length: 0x10000 }, (_, code) => code).filter(ruled));
  });

  it('reads CR/LF between segments, a leading BOM, non-ASCII letters, a valid surrogate pair, and control-character delimiters', () => {
    expect(read835s(`\ufeff${paidAndDenied.replaceAll('~', '~\r\n')}`)[0]!.payerName).toBe('ACME HEALTH PLAN');
    expect(read835s(paidAndDenied.replace('ACME HEALTH PLAN', 'ACMÉ 🩺 PLAN'))[0]!.payerName).toBe('ACMÉ 🩺 PLAN');
    // Some senders use the information separators as delimiters: 0x1D between elements, 0x1C after segments.
    const separators = paidAndDenied.replaceAll('*', '\u001d').replaceAll('~', '\u001c');
    expect(read835s(separators)[0]!.payerName).toBe('ACME HEALTH PLAN');
  });
});
