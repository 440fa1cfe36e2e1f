import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build277ca, type Build277caInput } from './build-277ca';
import { describeStatusCategory, describeStatusCode } from './claim-status-codes';
import { isAcceptedCategory, read277 } from './read-277';
import { X12ReadError } from './x12-read-error';

// Golden files written by hand from the 005010X214 TR3's examples (loop order, element positions), not by the builder.
const golden = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

const acceptedAndRejected: Build277caInput = {
  interchangeControlNumber: 401,
  groupControlNumber: 401,
  transactionControlNumber: '0001',
  senderId: 'CLEARINGHOUSE',
  receiverId: 'CLINICSUBMIT',
  usageIndicator: 'T',
  createdAt: new Date('2025-03-05T08:15:00Z'),
  referenceId: '277CA401',
  informationSource: { entity: 'AY', id: 'CLEARINGHOUSE', name: 'DEMO CLEARINGHOUSE' },
  informationReceiver: { id: 'CLINICSUBMIT', name: 'NORTHSIDE CLINIC' },
  batchId: 'BATCH101',
  receivedDate: '2025-03-04',
  processedDate: '2025-03-05',
  billingProvider: { npi: '1234567893', name: 'NORTHSIDE CLINIC' },
  claims: [
    {
      claimId: 'clm_0a1b2c3d4e5f6071',
      patient: { lastName: 'DOE', firstName: 'JANE', memberId: 'W123456789' },
      status: { category: 'A2', code: '20', entity: 'PR' },
      statusDate: '2025-03-05',
      chargeCents: 12500,
      payerClaimId: 'PCN2025030500001',
      serviceDates: { from: '2025-03-03' },
    },
    {
      claimId: 'clm_1b2c3d4e5f607182',
      patient: { lastName: 'DOE', firstName: 'TIMMY', memberId: 'W987654321' },
      status: { category: 'A7', code: '562', entity: '85' },
      statusDate: '2025-03-05',
      chargeCents: 41075,
      message: 'BILLING PROVIDER NPI NOT ON FILE',
      serviceDates: { from: '2025-03-03', to: '2025-03-04' },
    },
  ],
};

describe('build277ca', () => {
  it('writes an accepted and a rejected claim with the receiver-level summary as the golden file', () => {
    expect(build277ca(acceptedAndRejected)).toBe(golden('277ca-accepted-and-rejected.x12'));
  });

  it('names the payer (PR with PI) as the information source by default, and says U when nothing was accepted', () => {
    const text = build277ca({
      ...acceptedAndRejected,
      informationSource: { id: '60054', name: 'DEMO HEALTH PLAN' },
      claims: [acceptedAndRejected.claims[1]!],
    });
    expect(text).toContain('NM1*PR*2*DEMO HEALTH PLAN*****PI*60054~');
    expect(text).toContain('STC*A1:19:PR*20250305*U*410.75~\nQTY*AA*1~\nAMT*YY*410.75~\nHL*3*2*19*1~');
  });

  it('reads back what it writes', () => {
    const report = read277(build277ca(acceptedAndRejected));
    expect(report.claims.map((claim) => [claim.claimId, claim.statusCategory, claim.accepted])).toEqual([
      ['clm_0a1b2c3d4e5f6071', 'A2', true],
      ['clm_1b2c3d4e5f607182', 'A7', false],
    ]);
  });

  it.each([
    ['no claims', { claims: [] }, 'claims must hold at least one claim'],
    ['a BHT03 over 30 characters', { referenceId: 'R'.repeat(31) }, 'referenceId must be 1..30 characters'],
    ['a bad NPI', { billingProvider: { npi: '123', name: 'X' } }, 'billingProvider.npi must be 10 digits'],
    ['a bad date', { receivedDate: '2025-3-4' }, 'receivedDate must be YYYY-MM-DD'],
    [
      'a period that ends before it starts',
      { claims: [{ ...acceptedAndRejected.claims[0]!, serviceDates: { from: '2025-03-03', to: '2025-03-02' } }] },
      'claims[0].serviceDates.to must not be before claims[0].serviceDates.from',
    ],
    [
      'a fractional charge',
      { claims: [{ ...acceptedAndRejected.claims[0]!, chargeCents: 1.5 }] },
      'amount must be non-negative integer cents',
    ],
    [
      'a delimiter in a message',
      { claims: [{ ...acceptedAndRejected.claims[1]!, message: 'NPI~BAD' }] },
      'value for STC holds a delimiter character',
    ],
  ] as [string, Partial<Build277caInput>, string][])('refuses %s', (_name, change, message) => {
    expect(() => build277ca({ ...acceptedAndRejected, ...change })).toThrow(new RangeError(message));
  });
});

describe('read277 on a 277CA', () => {
  it('reads each claim of the golden file, not the receiver-level TRN*2 and STC', () => {
    expect(read277(golden('277ca-accepted-and-rejected.x12'))).toEqual({
      kind: '277CA',
      interchangeControlNumber: '000000401',
      claims: [
        {
          claimId: 'clm_0a1b2c3d4e5f6071',
          payerClaimId: 'PCN2025030500001',
          statusCategory: 'A2',
          statusCode: '20',
          entityCode: 'PR',
          statusDate: '2025-03-05',
          chargeCents: 12500,
          paidCents: null,
          message: null,
          accepted: true,
        },
        {
          claimId: 'clm_1b2c3d4e5f607182',
          payerClaimId: null,
          statusCategory: 'A7',
          statusCode: '562',
          entityCode: '85',
          statusDate: '2025-03-05',
          chargeCents: 41075,
          paidCents: null,
          message: 'BILLING PROVIDER NPI NOT ON FILE',
          accepted: false,
        },
      ],
    });
  });

  it('reads pipes, ">" components and CRLF, and keeps the claim-level STC over a line-level one', () => {
    const report = read277(golden('277ca-pipes-line-level.x12'));
    expect(
      report.claims.map((c) => [
        c.claimId,
        c.statusCategory,
        c.statusCode,
        c.entityCode,
        c.chargeCents,
        c.message,
        c.accepted,
      ]),
    ).toEqual([
      ['clm_accepted_01', 'A2', '20', 'PR', 20000, null, true],
      ['clm_rejected_line', 'A3', '21', '85', 50000, null, false],
      ['clm_rejected_02', 'A6', '164', 'IL', 5000, 'MEMBER ID MISSING', false],
    ]);
  });
});

describe('isAcceptedCategory', () => {
  it.each([
    ['A0', true],
    ['A1', true],
    ['A2', true],
    ['A5', true],
    ['F1', true],
    ['F2', true],
    ['P1', true],
    ['R4', true],
    ['A3', false],
    ['A4', false],
    ['A6', false],
    ['A7', false],
    ['A8', false],
    ['E0', false],
    ['D0', false],
    ['', false],
  ])('%s is accepted: %s', (category, accepted) => {
    expect(isAcceptedCategory(category)).toBe(accepted);
  });
});

describe('claim status words', () => {
  it('describes the common categories and codes, and nothing for an unknown one or an inherited key', () => {
    expect(describeStatusCategory('A7')).toBe('Acknowledgement/Rejected for invalid information');
    expect(describeStatusCode('33')).toBe('Subscriber and subscriber id not found.');
    expect([describeStatusCategory('Z9'), describeStatusCode('99999'), describeStatusCode('toString')]).toEqual([
      null,
      null,
      null,
    ]);
  });
});

describe('read277 refusals', () => {
  const reasonOf = (text: string) => {
    try {
      read277(text);
      return null;
    } catch (error) {
      if (!(error instanceof X12ReadError)) throw error;
      return `${error.kind}: ${error.reason}`;
    }
  };
  const ack = golden('277ca-accepted-and-rejected.x12');
  it.each([
    ['a 999', golden('999-accepted.x12'), 'unreadable: transaction set "999" is not a 277'],
    [
      'another 277 guide',
      ack.replaceAll('005010X214', '005010X228'),
      'unreadable: ST03 "005010X228" is neither 005010X214 nor 005010X212',
    ],
    [
      'a claim without STC',
      ack.replace('STC*A2:20:PR*20250305*WQ*125~', 'REF*D9*X~'),
      'unreadable: a claim (2200D) has no STC',
    ],
    ['no claim', ack.replaceAll('TRN*2*clm_', 'REF*EA*clm_'), 'unreadable: the 277 holds no claim status (2200D)'],
    [
      'a bad STC02',
      ack.replace('STC*A2:20:PR*20250305', 'STC*A2:20:PR*20251305'),
      'unreadable: STC02 is not a CCYYMMDD date',
    ],
    ['a bad STC04', ack.replace('*WQ*125~', '*WQ*1.255~'), 'unreadable: STC04 is not an amount'],
    [
      'an STC01 without a status code',
      ack.replace('STC*A2:20:PR', 'STC*A2'),
      'unreadable: STC01 has no category or status code',
    ],
    ['a TA1', golden('ta1-rejected.x12'), 'ta1: interchange rejected with a TA1 (TA104 R)'],
  ])('refuses %s', (_name, text, reason) => {
    expect(reasonOf(text)).toBe(reason);
  });
});
