import { describe, expect, it } from 'vitest';
import { build837p, type Build837pInput } from '../../x12/build-837p';
import { read277 } from '../../x12/read-277';
import { read835 } from '../../x12/read-835';
import { read999 } from '../../x12/read-999';
import { X12ReadError } from '../../x12/x12-read-error';
import { answerClaim, scenarioFor } from './answer-claim';

const sent: Build837pInput = {
  interchangeControlNumber: 101,
  groupControlNumber: 101,
  transactionControlNumber: '0001',
  senderId: 'CLINICSUBMIT',
  receiverId: 'SANDBOXCH',
  usageIndicator: 'T',
  createdAt: new Date('2025-03-04T14:30:00Z'),
  batchId: 'BATCH101',
  submitter: { id: 'CLINICSUBMIT', name: 'NORTHSIDE CLINIC', contactName: 'BILLING OFFICE', phone: '5555550100' },
  receiver: { id: 'SANDBOXCH', name: 'SANDBOX CLEARINGHOUSE' },
  claim: {
    claimId: 'clm_0a1b2c3d4e5f6071',
    totalChargeCents: 21005,
    placeOfService: '11',
    diagnoses: ['J069'],
    lines: [
      {
        procedureCode: '99213',
        modifiers: [],
        diagnosisPointers: [1],
        units: 1,
        chargeCents: 12500,
        serviceDate: '2025-03-03',
      },
      {
        procedureCode: '87880',
        modifiers: ['QW'],
        diagnosisPointers: [1],
        units: 1,
        chargeCents: 8505,
        serviceDate: '2025-03-04',
      },
    ],
    billingProvider: {
      npi: '1234567893',
      name: 'NORTHSIDE CLINIC',
      taxonomyCode: '207Q00000X',
      taxId: '123456789',
      address: { line1: '100 MAIN ST', city: 'SPRINGFIELD', state: 'IL', postalCode: '627010001' },
    },
    payer: { id: '60054', name: 'DEMO HEALTH PLAN' },
    subscriber: {
      memberId: 'W123456789',
      name: { lastName: 'DOE', firstName: 'JANE' },
      demographics: {
        birthDate: '1980-01-15',
        sex: 'F',
        address: { line1: '12 ELM ST', city: 'SPRINGFIELD', state: 'IL', postalCode: '62704' },
      },
    },
    patient: null,
  },
};

const now = new Date('2025-03-05T10:00:00Z');
const controlNumbers = { ack999: 7001, ack277ca: 7002 };

function answerFor(memberId: string, claimId = sent.claim.claimId) {
  const x12 = build837p({
    ...sent,
    claim: { ...sent.claim, claimId, subscriber: { ...sent.claim.subscriber, memberId } },
  });
  return answerClaim({ x12, now, controlNumbers });
}

describe('scenarioFor', () => {
  it.each([
    ['DEMO-CH-REJECT-01', 'rejected'],
    ['DEMO-CH-ERRORS', 'accepted-with-errors'],
    ['DEMO-CH-DENY9', 'deny-later'],
    ['W123456789', 'accepted'],
    ['demo-ch-reject', 'accepted'],
    ['XDEMO-CH-REJECT', 'accepted'],
  ])('%s → %s', (memberId, scenario) => {
    expect(scenarioFor(memberId)).toBe(scenario);
  });
});

describe('answerClaim', () => {
  it('accepts a claim: 999 A for the 837 group and set, 277CA A2 with a payer claim number, from the clearinghouse', () => {
    const answer = answerFor('W123456789');
    expect(answer.scenario).toBe('accepted');
    expect(read999(answer.ack999)).toEqual({
      interchangeControlNumber: '000007001',
      functionalId: 'HC',
      groupControlNumber: '101',
      groupStatus: 'A',
      sets: [{ transactionSetId: '837', controlNumber: '0001', status: 'A', errors: [] }],
    });
    expect(answer.ack999).toContain('*ZZ*SANDBOXCH      *ZZ*CLINICSUBMIT   *250305*1000*');
    const report = read277(answer.ack277ca);
    expect(report.kind).toBe('277CA');
    expect(report.claims).toEqual([
      {
        claimId: sent.claim.claimId,
        payerClaimId: expect.stringMatching(/^SBXPCN[0-9A-F]{12}$/),
        statusCategory: 'A2',
        statusCode: '20',
        entityCode: 'PR',
        statusDate: '2025-03-05',
        chargeCents: 21005,
        paidCents: null,
        message: null,
        accepted: true,
      },
    ]);
    expect(answer.ack277ca).toContain('TRN*2*BATCH101~');
    expect(answer.ack277ca).toContain('DTP*472*RD8*20250303-20250304~');
  });

  it('pays the accepted claim later: 80% of each line, CO-45 for the rest, a $20 PR-3 copay, balanced', () => {
    const answer = answerFor('W123456789');
    const remittance = read835(answer.remittance835!('2025-03-20'));
    const payerClaimId = read277(answer.ack277ca).claims[0]!.payerClaimId;
    expect(remittance).toEqual({
      payerId: '60054',
      payerName: 'DEMO HEALTH PLAN',
      payeeNpi: '1234567893',
      traceNumber: expect.stringMatching(/^SBX[0-9A-F]{20}$/),
      paymentMethod: 'CHK',
      // 12500 → allowed 10000 (CO-45 2500), copay 2000, paid 8000; 8505 → allowed 6804 (CO-45 1701), paid 6804.
      paymentCents: 14804,
      paymentDate: '2025-03-20',
      claims: [
        {
          claimId: sent.claim.claimId,
          payerClaimId,
          statusCode: '1',
          chargeCents: 21005,
          paidCents: 14804,
          patientResponsibilityCents: 2000,
          adjustments: [],
          lines: [
            {
              procedureCode: '99213',
              modifiers: [],
              chargeCents: 12500,
              paidCents: 8000,
              units: 1,
              adjustments: [
                { group: 'CO', reason: '45', amountCents: 2500 },
                { group: 'PR', reason: '3', amountCents: 2000 },
              ],
            },
            {
              procedureCode: '87880',
              modifiers: ['QW'],
              chargeCents: 8505,
              paidCents: 6804,
              units: 1,
              adjustments: [{ group: 'CO', reason: '45', amountCents: 1701 }],
            },
          ],
        },
      ],
      providerAdjustments: [],
    });
  });

  it('writes the same remittance bytes on every run; its trace depends on the claim id alone', () => {
    const first = answerFor('W123456789').remittance835!('2025-03-20');
    expect(answerFor('W123456789').remittance835!('2025-03-20')).toBe(first);
    const later = read835(answerFor('W123456789').remittance835!('2025-04-01'));
    expect(later.traceNumber).toBe(read835(first).traceNumber);
    const other = read835(answerFor('W123456789', 'clm_another').remittance835!('2025-03-20'));
    expect(other.traceNumber).not.toBe(read835(first).traceNumber);
  });

  it('rejects DEMO-CH-REJECT… in the 277CA (A7:33:IL, with the reason) after a 999 A, and never pays it', () => {
    const answer = answerFor('DEMO-CH-REJECT-0001');
    expect(answer.scenario).toBe('rejected');
    expect(read999(answer.ack999).groupStatus).toBe('A');
    const claim = read277(answer.ack277ca).claims[0]!;
    expect([
      claim.statusCategory,
      claim.statusCode,
      claim.entityCode,
      claim.accepted,
      claim.payerClaimId,
      claim.message,
    ]).toEqual(['A7', '33', 'IL', false, null, 'SUBSCRIBER ID NOT FOUND (SANDBOX CLEARINGHOUSE)']);
    expect(answer.remittance835).toBeUndefined();
  });

  it('accepts DEMO-CH-ERRORS… with errors (999 E naming the PER segment) and an accepted 277CA', () => {
    const answer = answerFor('DEMO-CH-ERRORS-0001');
    expect(answer.scenario).toBe('accepted-with-errors');
    const ack = read999(answer.ack999);
    expect([ack.groupStatus, ack.sets]).toEqual([
      'E',
      [
        {
          transactionSetId: '837',
          controlNumber: '0001',
          status: 'E',
          errors: [{ segmentId: 'PER', position: 4, code: '8', elementPosition: 4, elementCode: 'I12' }],
        },
      ],
    ]);
    expect(read277(answer.ack277ca).claims[0]!.accepted).toBe(true);
    expect(read835(answer.remittance835!('2025-03-20')).paymentCents).toBe(14804);
  });

  it('accepts DEMO-CH-DENY… and its remittance denies it: CLP02 4, CO-50 on every line, nothing paid', () => {
    const answer = answerFor('DEMO-CH-DENY-0001');
    expect(answer.scenario).toBe('deny-later');
    expect(read277(answer.ack277ca).claims[0]!.accepted).toBe(true);
    const text = answer.remittance835!('2025-03-20');
    expect(text).toContain('BPR*H*0*C*NON************20250320~');
    const remittance = read835(text);
    expect(remittance.paymentCents).toBe(0);
    expect(remittance.claims.map((c) => [c.statusCode, c.paidCents, c.patientResponsibilityCents])).toEqual([
      ['4', 0, 0],
    ]);
    expect(remittance.claims[0]!.lines.map((line) => line.adjustments)).toEqual([
      [{ group: 'CO', reason: '50', amountCents: 12500 }],
      [{ group: 'CO', reason: '50', amountCents: 8505 }],
    ]);
  });

  it('names a dependent patient in the 277CA and the 835, with the subscriber member id', () => {
    const x12 = build837p({
      ...sent,
      claim: {
        ...sent.claim,
        subscriber: { ...sent.claim.subscriber, demographics: null },
        patient: {
          relationshipCode: '19',
          name: { lastName: 'DOE', firstName: 'TIMMY' },
          demographics: sent.claim.subscriber.demographics!,
        },
      },
    });
    const answer = answerClaim({ x12, now, controlNumbers });
    expect(answer.ack277ca).toContain('NM1*QC*1*DOE*TIMMY****MI*W123456789~');
    expect(answer.remittance835!('2025-03-20')).toContain('NM1*QC*1*DOE*TIMMY****MI*W123456789~');
  });

  it('refuses text that is not an 837P with an X12ReadError', () => {
    const x12 = build837p(sent).replace('ST*837*', 'ST*835*');
    expect(() => answerClaim({ x12, now, controlNumbers })).toThrow(X12ReadError);
  });
});
