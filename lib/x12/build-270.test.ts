import { describe, expect, it } from 'vitest';
import { build270, type Build270Input } from './build-270';
import { readInterchange } from './read-interchange';

const input: Build270Input = {
  interchangeControlNumber: 42,
  groupControlNumber: 7,
  transactionControlNumber: '0001',
  senderId: 'CLINICSUBMIT',
  receiverId: 'PAYERRECV',
  createdAt: new Date('2025-03-01T09:05:07Z'),
  payer: { id: '60054', name: 'AETNA' },
  provider: { npi: '1234567893', name: 'NORTHSIDE CLINIC' },
  subscriber: { memberId: 'W123456789', firstName: 'JANE', lastName: 'DOE', birthDate: '1980-01-15' },
  serviceTypeCodes: ['30', '98'],
  dateOfService: '2025-03-02',
  traceNumber: 'TRACE42',
};

// Written by hand from the 005010X279A1 270 TR3, not by the builder.
const GOLDEN = [
  'ISA*00*          *00*          *ZZ*CLINICSUBMIT   *ZZ*PAYERRECV      *250301*0905*^*00501*000000042*0*P*:~',
  'GS*HS*CLINICSUBMIT*PAYERRECV*20250301*0905*7*X*005010X279A1~',
  'ST*270*0001*005010X279A1~',
  'BHT*0022*13*TRACE42*20250301*090507~',
  'HL*1**20*1~',
  'NM1*PR*2*AETNA*****PI*60054~',
  'HL*2*1*21*1~',
  'NM1*1P*2*NORTHSIDE CLINIC*****XX*1234567893~',
  'HL*3*2*22*0~',
  'TRN*1*TRACE42*9123456789~',
  'NM1*IL*1*DOE*JANE****MI*W123456789~',
  'DMG*D8*19800115~',
  'DTP*291*D8*20250302~',
  'EQ*30~',
  'EQ*98~',
  'SE*14*0001~',
  'GE*1*7~',
  'IEA*1*000000042~',
  '',
].join('\n');

describe('build270', () => {
  it('writes the golden 270 byte for byte', () => {
    expect(build270(input)).toBe(GOLDEN);
  });

  it('writes a 106-character ISA and counts and control numbers our reader accepts', () => {
    const text = build270({ ...input, serviceTypeCodes: ['30'], traceAssigningEntityId: '1123456789' });
    expect(text.indexOf('~')).toBe(105);
    const interchange = readInterchange(text);
    const transaction = interchange.groups[0]!.transactions[0]!;
    expect([
      interchange.controlNumber,
      interchange.groups[0]!.controlNumber,
      transaction.id,
      transaction.segments.length,
    ]).toEqual(['000000042', '7', '270', 13]);
    expect(transaction.segments.find((s) => s.id === 'TRN')!.raw).toBe('TRN*1*TRACE42*1123456789');
  });

  it('cuts names longer than NM103 (60) and NM104 (35) without leaving a trailing space', () => {
    // Character 60 (or 35) is a space: a plain cut would end the element on it.
    const long = { lastName: `${'L'.repeat(59)} TAIL`, firstName: `${'F'.repeat(34)} TAIL` };
    const text = build270({
      ...input,
      payer: { ...input.payer, name: `${'P'.repeat(59)} PLAN` },
      provider: { ...input.provider, name: `${'C'.repeat(59)}  CLINIC` },
      subscriber: { ...input.subscriber, ...long },
    });
    const names = readInterchange(text)
      .groups[0]!.transactions[0]!.segments.filter((s) => s.id === 'NM1')
      .map((s) => [s.elements[3], s.elements[4]]);
    expect(names).toEqual([
      ['P'.repeat(59), ''],
      ['C'.repeat(59), ''],
      ['L'.repeat(59), 'F'.repeat(34)],
    ]);
  });

  it.each([
    [
      'a name holding the element separator',
      { ...input, subscriber: { ...input.subscriber, lastName: 'DOE*SMITH' } },
      'value for NM1 holds a delimiter character',
    ],
    [
      'a malformed birth date',
      { ...input, subscriber: { ...input.subscriber, birthDate: '1/15/1980' } },
      'subscriber.birthDate must be YYYY-MM-DD',
    ],
    ['no service type', { ...input, serviceTypeCodes: [] }, 'serviceTypeCodes must hold 1..99 codes'],
    [
      'an NPI that is not 10 digits',
      { ...input, provider: { ...input.provider, npi: '123' } },
      'provider.npi must be 10 digits',
    ],
    [
      'a control number out of range',
      { ...input, interchangeControlNumber: 1_000_000_000 },
      'interchangeControlNumber must be 1..999999999',
    ],
  ])('refuses %s', (_case, bad, message) => {
    expect(() => build270(bad)).toThrow(new RangeError(message));
  });
});
