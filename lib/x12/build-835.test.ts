import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { build835, type Adjustment835, type Build835Input, type Claim835 } from './build-835';
import { read835 } from './read-835';

// The golden file was written by hand from the 005010X221A1 TR3's examples (segment order, element positions).
const golden = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

const paid: Claim835 = {
  claimId: 'clm_0a1b2c3d4e5f6071',
  statusCode: '1',
  chargeCents: 14500,
  paidCents: 9600,
  patientResponsibilityCents: 2000,
  payerClaimId: 'PCN2025030500001',
  facilityCode: '11',
  patient: { lastName: 'DOE', firstName: 'JANE', memberId: 'W123456789' },
  statementFrom: '2025-03-03',
  adjustments: [],
  lines: [
    {
      procedureCode: '99213',
      chargeCents: 12500,
      paidCents: 8000,
      units: 1,
      serviceDate: '2025-03-03',
      adjustments: [
        { group: 'CO', reason: '45', amountCents: 2500 },
        { group: 'PR', reason: '3', amountCents: 2000 },
      ],
    },
    {
      procedureCode: '36415',
      chargeCents: 2000,
      paidCents: 1600,
      units: 1,
      serviceDate: '2025-03-03',
      adjustments: [{ group: 'CO', reason: '45', amountCents: 400 }],
    },
  ],
};

const denied: Claim835 = {
  claimId: 'clm_1b2c3d4e5f607182',
  statusCode: '4',
  chargeCents: 20000,
  paidCents: 0,
  patientResponsibilityCents: 0,
  payerClaimId: 'PCN2025030500002',
  patient: { lastName: 'DOE', firstName: 'TIMMY', memberId: 'W987654321' },
  statementFrom: '2025-03-03',
  statementTo: '2025-03-04',
  adjustments: [],
  lines: [
    {
      procedureCode: '99214',
      modifiers: ['25'],
      chargeCents: 20000,
      paidCents: 0,
      units: 1,
      serviceDate: '2025-03-04',
      adjustments: [{ group: 'CO', reason: '50', amountCents: 20000 }],
    },
  ],
};

const remittance: Build835Input = {
  interchangeControlNumber: 701,
  groupControlNumber: 701,
  transactionControlNumber: '0001',
  senderId: 'DEMOPAYER',
  receiverId: 'CLINICSUBMIT',
  usageIndicator: 'P',
  createdAt: new Date('2025-03-20T12:00:00Z'),
  paymentMethod: 'CHK',
  paymentDate: '2025-03-20',
  traceNumber: 'CHK20250320001',
  payer: {
    id: '60054',
    name: 'DEMO HEALTH PLAN',
    taxId: '999000001',
    address: { line1: '1 PLAN PLAZA', line2: 'SUITE 5', city: 'HARTFORD', state: 'CT', postalCode: '06101' },
    technicalContact: { name: 'EDI SUPPORT', phone: '8005550100' },
  },
  payee: { npi: '1234567893', name: 'NORTHSIDE CLINIC' },
  claims: [paid, denied],
  providerAdjustments: [{ reason: 'WO', reference: 'OVERPAY0001', amountCents: 1000 }],
  fiscalPeriodDate: '2025-12-31',
};

describe('build835', () => {
  it('writes a paid and a denied claim with a PLB as the golden file, BPR02 computed', () => {
    expect(build835(remittance)).toBe(golden('835-built-paid-and-denied.x12'));
  });

  it('is read back by read835 to the same numbers', () => {
    expect(read835(build835(remittance))).toEqual({
      payerId: '60054',
      payerName: 'DEMO HEALTH PLAN',
      payeeNpi: '1234567893',
      traceNumber: 'CHK20250320001',
      paymentMethod: 'CHK',
      paymentCents: 8600,
      paymentDate: '2025-03-20',
      claims: [
        {
          claimId: paid.claimId,
          payerClaimId: 'PCN2025030500001',
          statusCode: '1',
          chargeCents: 14500,
          paidCents: 9600,
          patientResponsibilityCents: 2000,
          adjustments: [],
          lines: [
            {
              procedureCode: '99213',
              modifiers: [],
              chargeCents: 12500,
              paidCents: 8000,
              units: 1,
              adjustments: paid.lines[0]!.adjustments,
            },
            {
              procedureCode: '36415',
              modifiers: [],
              chargeCents: 2000,
              paidCents: 1600,
              units: 1,
              adjustments: paid.lines[1]!.adjustments,
            },
          ],
        },
        {
          claimId: denied.claimId,
          payerClaimId: 'PCN2025030500002',
          statusCode: '4',
          chargeCents: 20000,
          paidCents: 0,
          patientResponsibilityCents: 0,
          adjustments: [],
          lines: [
            {
              procedureCode: '99214',
              modifiers: ['25'],
              chargeCents: 20000,
              paidCents: 0,
              units: 1,
              adjustments: denied.lines[0]!.adjustments,
            },
          ],
        },
      ],
      providerAdjustments: [{ reason: 'WO', reference: 'OVERPAY0001', amountCents: 1000 }],
    });
  });

  it('writes a notification-only BPR (H, NON) when nothing is paid', () => {
    const text = build835({ ...remittance, claims: [denied], providerAdjustments: [] });
    expect(text).toContain('BPR*H*0*C*NON************20250320~');
    expect(read835(text).paymentCents).toBe(0);
  });

  it('writes a reversal (CLP02 22) with negative amounts', () => {
    const reversal: Claim835 = {
      ...paid,
      statusCode: '22',
      chargeCents: -14500,
      paidCents: -9600,
      patientResponsibilityCents: -2000,
      lines: paid.lines.map((line) => ({
        ...line,
        chargeCents: -line.chargeCents,
        paidCents: -line.paidCents,
        adjustments: line.adjustments.map((adjustment) => ({ ...adjustment, amountCents: -adjustment.amountCents })),
      })),
    };
    const text = build835({ ...remittance, claims: [paid, reversal], providerAdjustments: [] });
    expect(text).toContain('CLP*clm_0a1b2c3d4e5f6071*22*-145*-96*-20*12*');
    expect(text).toContain('CAS*CO*45*-25~');
    expect(read835(text).paymentCents).toBe(0);
  });

  it('writes the claim statement dates only when a line has no service date, and needs them then', () => {
    const undated = { ...denied, lines: [{ ...denied.lines[0]!, serviceDate: undefined }] };
    const text = build835({ ...remittance, claims: [undated], providerAdjustments: [] });
    expect(text).toContain('NM1*QC*1*DOE*TIMMY****MI*W987654321~\nDTM*232*20250303~\nDTM*233*20250304~\nSVC*');
    const { statementFrom: _from, ...withoutDates } = undated;
    expect(() => build835({ ...remittance, claims: [withoutDates], providerAdjustments: [] })).toThrow(
      new RangeError('claims[0].statementFrom is required when a line has no serviceDate'),
    );
  });

  it('puts up to six reason/amount pairs of one group in one CAS', () => {
    const adjustments: Adjustment835[] = Array.from({ length: 7 }, (_, i) => ({
      group: 'CO',
      reason: String(45 + i),
      amountCents: 100,
    }));
    const line = { procedureCode: '99213', chargeCents: 1000, paidCents: 300, units: 1, adjustments };
    const text = build835({
      ...remittance,
      claims: [{ ...paid, chargeCents: 1000, paidCents: 300, patientResponsibilityCents: 0, lines: [line] }],
      providerAdjustments: [],
    });
    expect(text).toContain('CAS*CO*45*1**46*1**47*1**48*1**49*1**50*1~\nCAS*CO*51*1~');
    expect(read835(text).claims[0]!.lines[0]!.adjustments).toEqual(adjustments);
  });

  it.each([
    ['no claims', { claims: [] }, 'claims must hold at least one claim'],
    [
      'a line that does not balance',
      { claims: [{ ...paid, lines: [{ ...paid.lines[0]!, paidCents: 8001 }, paid.lines[1]!] }] },
      'claims[0].lines[0] does not balance: chargeCents - adjustments must equal paidCents',
    ],
    [
      'a claim that does not balance',
      { claims: [{ ...paid, chargeCents: 14600 }] },
      'claims[0] does not balance: chargeCents - every adjustment must equal paidCents',
    ],
    [
      'a PLB larger than the payments',
      { providerAdjustments: [{ reason: 'WO', amountCents: 9601 }] },
      'the payment (sum of CLP04 - sum of PLB) must not be negative',
    ],
    [
      'a fractional amount',
      { claims: [{ ...paid, paidCents: 9600.5 }] },
      'claims[0]: amounts must be integer cents of at most MAX_AMOUNT_CENTS',
    ],
    ['a short EIN', { payer: { ...remittance.payer, taxId: '99' } }, 'payer.taxId must be 9 digits'],
    ['a bad payee NPI', { payee: { npi: 'x', name: 'N' } }, 'payee.npi must be 10 digits'],
    ['a bad payment date', { paymentDate: '20250320' }, 'paymentDate must be YYYY-MM-DD'],
  ] as [string, Partial<Build835Input>, string][])('refuses %s', (_name, change, message) => {
    expect(() => build835({ ...remittance, ...change })).toThrow(new RangeError(message));
  });

  it('writes any balanced remittance so that read835 reads back the same numbers', () => {
    const adjustment = fc.record({
      group: fc.constantFrom('CO', 'PR', 'OA'),
      reason: fc.constantFrom('1', '2', '3', '45', '50', '97'),
      amountCents: fc.integer({ min: 0, max: 5_000_000 }),
    });
    const line = fc
      .record({
        procedureCode: fc.constantFrom('99213', '81002', '97110'),
        modifiers: fc.array(fc.constantFrom('25', '59', 'GP'), { maxLength: 4 }),
        paidCents: fc.integer({ min: 0, max: 5_000_000 }),
        units: fc.integer({ min: 1, max: 9 }),
        adjustments: fc.array(adjustment, { maxLength: 8 }),
      })
      .map((l) => ({ ...l, chargeCents: l.paidCents + l.adjustments.reduce((sum, a) => sum + a.amountCents, 0) }));
    const claim = fc
      .record({
        claimId: fc.stringMatching(/^[a-z0-9_]{1,20}$/),
        lines: fc.array(line, { minLength: 1, maxLength: 4 }),
      })
      .map(({ claimId, lines }): Claim835 => ({
        ...paid,
        claimId,
        chargeCents: lines.reduce((sum, l) => sum + l.chargeCents, 0),
        paidCents: lines.reduce((sum, l) => sum + l.paidCents, 0),
        lines,
      }));
    fc.assert(
      fc.property(fc.array(claim, { minLength: 1, maxLength: 4 }), (claims) => {
        const read = read835(build835({ ...remittance, claims, providerAdjustments: [] }));
        expect(read.paymentCents).toBe(claims.reduce((sum, c) => sum + c.paidCents, 0));
        expect(
          read.claims.map((c) => [
            c.claimId,
            c.chargeCents,
            c.paidCents,
            c.lines.map((l) => [l.chargeCents, l.paidCents, l.modifiers, l.adjustments]),
          ]),
        ).toEqual(
          claims.map((c) => [
            c.claimId,
            c.chargeCents,
            c.paidCents,
            c.lines.map((l) => [l.chargeCents, l.paidCents, l.modifiers, l.adjustments]),
          ]),
        );
      }),
      { numRuns: 200 },
    );
  });
});
