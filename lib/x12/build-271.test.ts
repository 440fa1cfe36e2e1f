import { describe, expect, it } from 'vitest';
import { build271, type Build271Input } from './build-271';
import { readInterchange } from './read-interchange';

const input: Build271Input = {
  interchangeControlNumber: 42,
  groupControlNumber: 42,
  transactionControlNumber: '0001',
  senderId: 'PAYERRECV',
  receiverId: 'CLINICSUBMIT',
  createdAt: new Date('2025-03-01T09:05:09Z'),
  submitterTransactionId: 'TRACE42',
  payer: { id: '60054', name: 'AETNA' },
  provider: { npi: '1234567893', name: 'NORTHSIDE CLINIC' },
  subscriber: { memberId: 'W123456789', firstName: 'JANE', lastName: 'DOE', birthDate: '19800115' },
  inquiryTrace: { referenceId: 'TRACE42', originatorId: '9123456789' },
  // Given out of TR3 order on purpose: the builder writes REF before DMG before DTP.
  subscriberSegments: [
    ['DTP', '346', 'D8', '20250101'],
    ['REF', '6P', 'GRP00123', 'ACME GOLD PPO'],
  ],
  benefits: [
    { eb: ['1', 'IND', '30', 'PR', 'ACME GOLD PPO'] },
    { eb: ['B', 'IND', '98', '', '', '27', '25', '', '', '', '', 'Y'], messages: ['PRIMARY CARE OFFICE VISIT'] },
  ],
};

// Written by hand from the 005010X279A1 271 TR3 (its examples' shape), not by the builder.
const GOLDEN = [
  'ISA*00*          *00*          *ZZ*PAYERRECV      *ZZ*CLINICSUBMIT   *250301*0905*^*00501*000000042*0*P*:~',
  'GS*HB*PAYERRECV*CLINICSUBMIT*20250301*0905*42*X*005010X279A1~',
  'ST*271*0001*005010X279A1~',
  'BHT*0022*11*TRACE42*20250301*090509~',
  'HL*1**20*1~',
  'NM1*PR*2*AETNA*****PI*60054~',
  'HL*2*1*21*1~',
  'NM1*1P*2*NORTHSIDE CLINIC*****XX*1234567893~',
  'HL*3*2*22*0~',
  'TRN*2*TRACE42*9123456789~',
  'NM1*IL*1*DOE*JANE****MI*W123456789~',
  'REF*6P*GRP00123*ACME GOLD PPO~',
  'DMG*D8*19800115~',
  'DTP*346*D8*20250101~',
  'EB*1*IND*30*PR*ACME GOLD PPO~',
  'EB*B*IND*98***27*25*****Y~',
  'MSG*PRIMARY CARE OFFICE VISIT~',
  'SE*16*0001~',
  'GE*1*42~',
  'IEA*1*000000042~',
  '',
].join('\n');

// A payer that cannot answer at all: 2100A AAA, and HL04 0 because no 2000B follows.
const GOLDEN_PAYER_REJECTION = [
  'ISA*00*          *00*          *ZZ*PAYERRECV      *ZZ*CLINICSUBMIT   *250301*0905*^*00501*000000042*0*P*:~',
  'GS*HB*PAYERRECV*CLINICSUBMIT*20250301*0905*42*X*005010X279A1~',
  'ST*271*0001*005010X279A1~',
  'BHT*0022*11*TRACE42*20250301*090509~',
  'HL*1**20*0~',
  'NM1*PR*2*AETNA*****PI*60054~',
  'AAA*N**42*R~',
  'SE*6*0001~',
  'GE*1*42~',
  'IEA*1*000000042~',
  '',
].join('\n');

const segmentsOf = (text: string) => readInterchange(text).groups[0]!.transactions[0]!.segments;

describe('build271', () => {
  it('writes the golden 271 byte for byte, 2100C in TR3 order', () => {
    expect(build271(input)).toBe(GOLDEN);
  });

  it('writes the golden payer rejection byte for byte', () => {
    expect(build271({ ...input, payerRejection: { reasonCode: '42', followUpCode: 'R' } })).toBe(
      GOLDEN_PAYER_REJECTION,
    );
  });

  it("echoes the 270's TRN02..TRN04 in a TRN with TRN01 2", () => {
    const text = build271({
      ...input,
      inquiryTrace: { referenceId: 'T-77', originatorId: '1987654321', supplementalId: 'RADIOLOGY' },
    });
    expect(
      segmentsOf(text)
        .filter((s) => s.id === 'TRN')
        .map((s) => s.raw),
    ).toEqual(['TRN*2*T-77*1987654321*RADIOLOGY']);
  });

  it('puts a subscriber rejection between NM1 and DMG, as the TR3 orders 2100C', () => {
    const text = build271({
      ...input,
      subscriberSegments: [],
      benefits: [],
      subscriberRejection: { reasonCode: '75', followUpCode: 'C' },
    });
    expect(
      segmentsOf(text)
        .slice(8, -1)
        .map((s) => s.raw),
    ).toEqual(['NM1*IL*1*DOE*JANE****MI*W123456789', 'AAA*N**75*C', 'DMG*D8*19800115']);
  });

  it('cuts names longer than NM103 (60) and NM104 (35) without leaving a trailing space', () => {
    // Character 60 of the last name and character 35 of the first name are spaces: a plain cut would end on them.
    const lastName = `${'L'.repeat(59)} TAIL`;
    const firstName = `${'F'.repeat(34)} TAIL`;
    const payerName = `${'P'.repeat(59)} PLAN`;
    const text = build271({
      ...input,
      payer: { ...input.payer, name: payerName },
      subscriber: { ...input.subscriber, lastName, firstName },
    });
    const names = segmentsOf(text)
      .filter((s) => s.id === 'NM1')
      .map((s) => [s.elements[3], s.elements[4]]);
    expect(names).toEqual([
      ['P'.repeat(59), ''],
      ['NORTHSIDE CLINIC', ''],
      ['L'.repeat(59), 'F'.repeat(34)],
    ]);
  });

  it('refuses a 2100C segment the TR3 does not place in that loop', () => {
    expect(() => build271({ ...input, subscriberSegments: [['EB', '1']] })).toThrow(
      new RangeError('EB is not a loop 2100C segment'),
    );
  });
});
