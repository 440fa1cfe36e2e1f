import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build999, type Ack999Input } from './build-999';
import { read999 } from './read-999';
import { X12ReadError } from './x12-read-error';

// The golden files were written by hand from the 005010X231A1 TR3 (its examples' segment order and element
// positions), not by the builder, so a symmetric bug in builder and reader cannot hide.
const golden = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

const envelope = {
  senderId: 'CLEARINGHOUSE',
  receiverId: 'CLINICSUBMIT',
  usageIndicator: 'T' as const,
  transactionControlNumber: '0001',
};

const accepted: Ack999Input = {
  ...envelope,
  interchangeControlNumber: 201,
  groupControlNumber: 201,
  createdAt: new Date('2025-03-04T14:35:00Z'),
  received: { functionalId: 'HC', groupControlNumber: '101', implementationReference: '005010X222A1' },
  sets: [{ transactionSetId: '837', controlNumber: '0001', implementationReference: '005010X222A1', status: 'A' }],
};

const partial: Ack999Input = {
  ...envelope,
  interchangeControlNumber: 202,
  groupControlNumber: 202,
  transactionControlNumber: '0002',
  createdAt: new Date('2025-03-04T14:40:00Z'),
  received: { functionalId: 'HC', groupControlNumber: '110', implementationReference: '005010X222A1' },
  sets: [
    { transactionSetId: '837', controlNumber: '0001', implementationReference: '005010X222A1', status: 'A' },
    {
      transactionSetId: '837',
      controlNumber: '0002',
      implementationReference: '005010X222A1',
      status: 'R',
      errors: [
        {
          segmentId: 'CLM',
          position: 22,
          loopId: '2300',
          code: '8',
          claimId: 'clm_0002',
          element: { position: 2, referenceNumber: '782', code: '6', badValue: '12X' },
        },
      ],
    },
    {
      transactionSetId: '837',
      controlNumber: '0003',
      implementationReference: '005010X222A1',
      status: 'E',
      errors: [
        {
          segmentId: 'PER',
          position: 4,
          loopId: '1000A',
          code: '8',
          element: { position: 4, referenceNumber: '364', code: 'I12' },
        },
      ],
    },
  ],
};

describe('build999', () => {
  it('writes an accepted 837 group as the golden file', () => {
    expect(build999(accepted)).toBe(golden('999-accepted.x12'));
  });

  it('writes A, R (with the claim context) and E sets of one group as a partial acceptance', () => {
    expect(build999(partial)).toBe(golden('999-partial.x12'));
  });

  it('says R for the group when every set is rejected, E when none is but one has errors', () => {
    const [, rejectedSet, errorSet] = partial.sets;
    expect(read999(build999({ ...partial, sets: [rejectedSet!] })).groupStatus).toBe('R');
    expect(read999(build999({ ...partial, sets: [errorSet!, partial.sets[0]!] })).groupStatus).toBe('E');
  });

  it('writes a composite IK401 (element:component) and reads back its element position', () => {
    const text = build999({
      ...partial,
      sets: [
        {
          ...partial.sets[1]!,
          errors: [
            { segmentId: 'CLM', position: 22, code: '8', element: { position: 5, componentPosition: 2, code: '7' } },
          ],
        },
      ],
    });
    expect(text).toContain('IK3*CLM*22**8~\nIK4*5:2**7~\nIK5*R*5~');
    expect(read999(text).sets[0]!.errors).toEqual([
      { segmentId: 'CLM', position: 22, code: '8', elementPosition: 5, elementCode: '7' },
    ]);
  });

  it('writes AK902 from the received group count when it differs from the sets acknowledged', () => {
    const text = build999({ ...accepted, received: { ...accepted.received, transactionSetCount: 3 } });
    expect(text).toContain('AK9*A*3*1*1~');
  });

  it.each([
    ['no sets', { ...accepted, sets: [] }, 'sets must hold at least one transaction set'],
    [
      'an A set with errors',
      { ...accepted, sets: [{ ...accepted.sets[0]!, errors: partial.sets[2]!.errors }] },
      'sets[0] is accepted (A) but lists errors',
    ],
    [
      'an E set without errors',
      { ...accepted, sets: [{ ...accepted.sets[0]!, status: 'E' }] },
      'sets[0] is E but lists no errors',
    ],
    [
      'a zero segment position',
      { ...partial, sets: [{ ...partial.sets[1]!, errors: [{ segmentId: 'CLM', position: 0, code: '8' }] }] },
      'sets[0].errors[0].position must be a positive integer',
    ],
    [
      'a delimiter in a copied bad value',
      {
        ...partial,
        sets: [
          {
            ...partial.sets[1]!,
            errors: [
              { segmentId: 'CLM', position: 3, code: '8', element: { position: 1, code: '6', badValue: 'A*B' } },
            ],
          },
        ],
      },
      'value for IK4 holds a delimiter character',
    ],
  ] as [string, Ack999Input, string][])('refuses %s', (_name, input, message) => {
    expect(() => build999(input)).toThrow(new RangeError(message));
  });
});

describe('read999', () => {
  it('reads an accepted group', () => {
    expect(read999(golden('999-accepted.x12'))).toEqual({
      interchangeControlNumber: '000000201',
      functionalId: 'HC',
      groupControlNumber: '101',
      groupStatus: 'A',
      sets: [{ transactionSetId: '837', controlNumber: '0001', status: 'A', errors: [] }],
    });
  });

  it('reads each set with its IK3/IK4 errors, skipping CTX', () => {
    expect(read999(golden('999-partial.x12'))).toEqual({
      interchangeControlNumber: '000000202',
      functionalId: 'HC',
      groupControlNumber: '110',
      groupStatus: 'P',
      sets: [
        { transactionSetId: '837', controlNumber: '0001', status: 'A', errors: [] },
        {
          transactionSetId: '837',
          controlNumber: '0002',
          status: 'R',
          errors: [{ segmentId: 'CLM', position: 22, code: '8', elementPosition: 2, elementCode: '6' }],
        },
        {
          transactionSetId: '837',
          controlNumber: '0003',
          status: 'E',
          errors: [{ segmentId: 'PER', position: 4, code: '8', elementPosition: 4, elementCode: 'I12' }],
        },
      ],
    });
  });

  it('reads a one-line 999 with other delimiters, a situational-trigger CTX and two IK4s of one IK3', () => {
    expect(read999(golden('999-rejected-one-line.x12'))).toEqual({
      interchangeControlNumber: '000000301',
      functionalId: 'HC',
      groupControlNumber: '120',
      groupStatus: 'R',
      sets: [
        {
          transactionSetId: '837',
          controlNumber: '0001',
          status: 'R',
          errors: [
            { segmentId: 'NM1', position: 9, code: '8', elementPosition: 9, elementCode: '1' },
            { segmentId: 'NM1', position: 9, code: '8', elementPosition: 8, elementCode: '1' },
          ],
        },
      ],
    });
  });

  it('reads the 999 a payer sends for a rejected 270 (an IK3 without IK4)', () => {
    const ack = read999(golden('999-rejected.x12'));
    expect([ack.functionalId, ack.groupStatus, ack.sets]).toEqual([
      'HS',
      'R',
      [
        {
          transactionSetId: '270',
          controlNumber: '0001',
          status: 'R',
          errors: [{ segmentId: 'NM1', position: 8, code: '8' }],
        },
      ],
    ]);
  });

  it('reads back what build999 writes', () => {
    const ack = read999(build999(partial));
    expect(ack.sets.map((set) => [set.controlNumber, set.status, set.errors.length])).toEqual([
      ['0001', 'A', 0],
      ['0002', 'R', 1],
      ['0003', 'E', 1],
    ]);
  });

  const reasonOf = (text: string) => {
    try {
      read999(text);
      return null;
    } catch (error) {
      if (!(error instanceof X12ReadError)) throw error;
      return `${error.kind}: ${error.reason}`;
    }
  };
  const accepted999 = golden('999-accepted.x12');
  // Each edit keeps SE01 right (same number of segments), so the envelope passes and the 999's own rules are tested.
  it.each([
    ['a 277 instead', golden('277-paid.x12'), 'unreadable: transaction set "277" is not a 999'],
    ['an unknown IK501', accepted999.replace('IK5*A~', 'IK5*Q~'), 'unreadable: IK501 "Q" is not a 999 status'],
    ['an unknown AK901', accepted999.replace('AK9*A*', 'AK9*Z*'), 'unreadable: AK901 "Z" is not a 999 status'],
    [
      'no AK1',
      accepted999.replace('AK1*HC*101*005010X222A1~', 'IK5*A~'),
      'unreadable: the 999 has no AK1 after its ST',
    ],
    [
      'an AK2 without IK5',
      accepted999.replace('IK5*A~', 'AK2*837*0002~'),
      'unreadable: AK2 without an IK5 before the next AK2',
    ],
    ['no AK9', accepted999.replace('AK9*A*1*1*1~', 'IK5*A~'), 'unreadable: IK5 without an AK2'],
    ['a stray segment', accepted999.replace('IK5*A~', 'NM1*PR~'), 'unreadable: segment NM1 is not part of a 999'],
    [
      'an IK302 that is not a position',
      golden('999-partial.x12').replace('IK3*CLM*22*', 'IK3*CLM*99999999999*'),
      'unreadable: IK302 is not a position',
    ],
    ['a TA1 and no group', golden('ta1-rejected.x12'), 'ta1: interchange rejected with a TA1 (TA104 R)'],
  ])('refuses %s', (_name, text, reason) => {
    expect(reasonOf(text)).toBe(reason);
  });
});
