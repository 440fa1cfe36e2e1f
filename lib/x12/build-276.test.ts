import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build276, type Build276Input } from './build-276';
import { build277, type Build277Input } from './build-277';
import { read276 } from './read-276';
import { read277 } from './read-277';
import { X12ReadError } from './x12-read-error';

// Golden files written by hand from the 005010X212 TR3's examples (loop order, element positions), not by the builders.
const golden = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

const request: Build276Input = {
  interchangeControlNumber: 501,
  groupControlNumber: 501,
  transactionControlNumber: '0001',
  senderId: 'CLINICSUBMIT',
  receiverId: 'CLEARINGHOUSE',
  usageIndicator: 'T',
  createdAt: new Date('2025-04-01T09:30:00Z'),
  payer: { id: '60054', name: 'DEMO HEALTH PLAN' },
  receiver: { id: 'CLINICSUBMIT', name: 'NORTHSIDE CLINIC' },
  provider: { npi: '1234567893', name: 'NORTHSIDE CLINIC' },
  subscriber: {
    memberId: 'W987654321',
    lastName: 'DOE',
    firstName: 'JOHN',
    middleName: 'Q',
    birthDate: '1979-02-11',
    sex: 'M',
  },
  claim: {
    claimId: 'clm_1b2c3d4e5f607182',
    payerClaimId: 'PCN2025030500002',
    totalChargeCents: 41075,
    serviceDates: { from: '2025-03-03', to: '2025-03-04' },
  },
};

const paidAnswer: Build277Input = {
  interchangeControlNumber: 601,
  groupControlNumber: 601,
  transactionControlNumber: '0001',
  senderId: 'CLEARINGHOUSE',
  receiverId: 'CLINICSUBMIT',
  usageIndicator: 'T',
  createdAt: new Date('2025-04-01T09:31:00Z'),
  request,
  referenceId: '277-601',
  status: {
    status: { category: 'F1', code: '65' },
    statusDate: '2025-03-20',
    paidCents: 30860,
    adjudicatedDate: '2025-03-18',
    remittanceDate: '2025-03-20',
    remittanceTrace: 'SBX0001',
  },
};

describe('build276', () => {
  it('writes a claim status request for one claim as the golden file', () => {
    expect(build276(request)).toBe(golden('276-claim.x12'));
  });

  it('reads back to its input (read276), with the trace defaulting to the claim id', () => {
    expect(read276(build276(request))).toEqual({ ...request, traceNumber: request.claim.claimId });
  });

  it('writes no REF*1K before the payer assigned one, a D8 for one day, and no DMG03 for sex U', () => {
    const { payerClaimId: _none, ...claim } = request.claim;
    const text = build276({
      ...request,
      traceNumber: 'TRACE42',
      subscriber: { ...request.subscriber, middleName: undefined, sex: 'U' },
      claim: { ...claim, serviceDates: { from: '2025-03-03' } },
    });
    expect(text).toContain('DMG*D8*19790211~\nNM1*IL*1*DOE*JOHN****MI*W987654321~\nTRN*1*TRACE42~\nREF*EJ*');
    expect(text).toContain('DTP*472*D8*20250303~');
    const read = read276(text);
    expect([read.traceNumber, read.subscriber.sex, read.claim.payerClaimId, read.claim.serviceDates]).toEqual([
      'TRACE42',
      'U',
      undefined,
      { from: '2025-03-03' },
    ]);
  });

  it('asks about a dependent patient on its own level (2000E) with the DMG there, as the golden file', () => {
    const dependent: Build276Input = {
      ...request,
      interchangeControlNumber: 502,
      groupControlNumber: 502,
      transactionControlNumber: '0002',
      createdAt: new Date('2025-04-01T09:35:00Z'),
      patient: { lastName: 'DOE', firstName: 'TIMMY', birthDate: '2015-06-07', sex: 'M' },
    };
    const text = build276(dependent);
    expect(text).toBe(golden('276-dependent.x12'));
    const read = read276(text);
    expect([read.patient, read.subscriber]).toEqual([
      dependent.patient,
      { memberId: 'W987654321', lastName: 'DOE', firstName: 'JOHN', middleName: 'Q', birthDate: '', sex: 'U' },
    ]);
    const answer = build277({ ...paidAnswer, request: read });
    expect(answer).toContain(
      'HL*4*3*22*1~\nNM1*IL*1*DOE*JOHN*Q***MI*W987654321~\nHL*5*4*23~\nNM1*QC*1*DOE*TIMMY~\nTRN*2*',
    );
    expect(read277(answer).claims.map((claim) => [claim.claimId, claim.statusCategory])).toEqual([
      ['clm_1b2c3d4e5f607182', 'F1'],
    ]);
  });

  it.each([
    ['a bad NPI', { provider: { npi: '12345', name: 'X' } }, 'provider.npi must be 10 digits'],
    [
      'a claim id over 38 characters',
      { claim: { ...request.claim, claimId: 'c'.repeat(39) } },
      'claim.claimId must be 1..38 characters',
    ],
    ['a trace over 50 characters', { traceNumber: 't'.repeat(51) }, 'traceNumber must be 1..50 characters'],
    [
      'a bad birth date',
      { subscriber: { ...request.subscriber, birthDate: '11/02/1979' } },
      'subscriber.birthDate must be YYYY-MM-DD',
    ],
    [
      'a negative charge',
      { claim: { ...request.claim, totalChargeCents: -1 } },
      'amount must be non-negative integer cents',
    ],
    ['a delimiter in a name', { payer: { id: '60054', name: 'A*B' } }, 'value for NM1 holds a delimiter character'],
  ] as [string, Partial<Build276Input>, string][])('refuses %s', (_name, change, message) => {
    expect(() => build276({ ...request, ...change })).toThrow(new RangeError(message));
  });

  it('refuses to read anything but a 276 of its shape', () => {
    expect(() => read276(golden('277-paid.x12'))).toThrow(
      new X12ReadError('unreadable', 'not a 276 in an HR functional group'),
    );
    const noClaimId = golden('276-claim.x12').replace('REF*EJ*', 'REF*EA*');
    expect(() => read276(noClaimId)).toThrow(new X12ReadError('unreadable', 'segment 14: expected REF*EJ, found REF'));
  });
});

describe('build277 (the sandbox payer answering a 276)', () => {
  it('writes a paid claim status as the golden file', () => {
    expect(build277(paidAnswer)).toBe(golden('277-paid.x12'));
  });

  it('answers the request read back from the 276 with the same bytes', () => {
    expect(build277({ ...paidAnswer, request: read276(golden('276-claim.x12')) })).toBe(golden('277-paid.x12'));
  });

  it('is read by read277 as a 277 naming the claim by its REF*EJ', () => {
    expect(read277(build277(paidAnswer))).toEqual({
      kind: '277',
      interchangeControlNumber: '000000601',
      claims: [
        {
          claimId: 'clm_1b2c3d4e5f607182',
          payerClaimId: 'PCN2025030500002',
          statusCategory: 'F1',
          statusCode: '65',
          entityCode: null,
          statusDate: '2025-03-20',
          chargeCents: 41075,
          paidCents: 30860,
          message: null,
          accepted: true,
        },
      ],
    });
  });

  it('writes only STC01 and STC02 besides the charge for a pending claim', () => {
    const text = build277({
      ...paidAnswer,
      status: { status: { category: 'P1', code: '20' }, statusDate: '2025-03-06' },
    });
    expect(text).toContain('STC*P1:20*20250306**410.75~');
  });
});

describe('read277 on a 277 claim status response', () => {
  it('reads claims at the subscriber and dependent levels, ignoring the line-level STC', () => {
    expect(read277(golden('277-subscriber-and-dependent.x12'))).toEqual({
      kind: '277',
      interchangeControlNumber: '000000901',
      claims: [
        {
          claimId: 'clm_pending_01',
          payerClaimId: 'PCN2025030500001',
          statusCategory: 'P1',
          statusCode: '20',
          entityCode: null,
          statusDate: '2025-04-01',
          chargeCents: 12500,
          paidCents: null,
          message: null,
          accepted: true,
        },
        {
          claimId: 'clm_denied_02',
          payerClaimId: 'PCN2025030500002',
          statusCategory: 'F2',
          statusCode: '88',
          entityCode: 'QC',
          statusDate: '2025-03-25',
          chargeCents: 20000,
          paidCents: 0,
          message: null,
          accepted: true,
        },
        {
          claimId: 'clm_paid_03',
          payerClaimId: null,
          statusCategory: 'F1',
          statusCode: '65',
          entityCode: null,
          statusDate: '2025-03-20',
          chargeCents: 115000,
          paidCents: 92000,
          message: null,
          accepted: true,
        },
      ],
    });
  });

  it('refuses an interchange that mixes a 277CA and a 277', () => {
    const ack = golden('277ca-accepted-and-rejected.x12');
    const response = golden('277-paid.x12');
    const st = (text: string) => text.slice(text.indexOf('ST*'), text.indexOf('GE*'));
    const mixed = ack.replace(st(ack), st(ack) + st(response)).replace('GE*1*401~', 'GE*2*401~');
    expect(() => read277(mixed)).toThrow(
      new X12ReadError('unreadable', 'the interchange mixes 277CA and 277 transaction sets'),
    );
  });
});
