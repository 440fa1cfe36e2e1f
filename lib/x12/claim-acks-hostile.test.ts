// The claim-side readers (999, 277CA/277, 276) on hostile text: every failure is an X12ReadError, never a
// TypeError or a hang, whatever was cut, changed or repeated.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_INTERCHANGE_LENGTH } from './read-interchange';
import { read276 } from './read-276';
import { read277 } from './read-277';
import { read999 } from './read-999';
import { X12ReadError } from './x12-read-error';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

const readers: [string, (text: string) => unknown, string[]][] = [
  ['read999', read999, ['999-accepted.x12', '999-partial.x12', '999-rejected-one-line.x12']],
  [
    'read277',
    read277,
    ['277ca-accepted-and-rejected.x12', '277ca-pipes-line-level.x12', '277-subscriber-and-dependent.x12'],
  ],
  ['read276', read276, ['276-claim.x12', '276-dependent.x12']],
];
const cases = readers.flatMap(([name, read, files]) => files.map((file) => [name, file, read] as const));

/** null when `read` accepts the text, the X12ReadError's kind when it refuses it; anything else is thrown on. */
function outcome(read: (text: string) => unknown, text: string): string | null {
  try {
    read(text);
    return null;
  } catch (error) {
    if (error instanceof X12ReadError) return error.kind;
    throw error;
  }
}

describe.each(cases)('%s on %s', (_name, file, read) => {
  const text = fixture(file);

  it('reads the fixture', () => {
    expect(outcome(read, text)).toBeNull();
  });

  it('refuses every truncation before the last segment terminator', () => {
    const last = text.lastIndexOf('~');
    for (let length = 0; length < last; length++) expect(outcome(read, text.slice(0, length))).toBe('unreadable');
  });

  it('answers a changed character with a result or an X12ReadError, never another error', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: text.length - 1 }),
        fc.constantFrom('*', '~', ':', '^', '|', '>', '0', '9', 'A', ' ', '\n', '-', '.'),
        (at, character) => {
          outcome(read, text.slice(0, at) + character + text.slice(at + 1));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('hostile claim acknowledgments', () => {
  const accepted = fixture('999-accepted.x12');

  it('refuses an ISA whose component separator is its element separator', () => {
    const isa = accepted.slice(0, 106);
    expect(outcome(read999, `${isa.slice(0, 104)}*${isa.slice(105)}${accepted.slice(106)}`)).toBe('unreadable');
  });

  it('refuses an ISA whose element separator is a letter', () => {
    expect(outcome(read999, accepted.replaceAll('*', 'X'))).toBe('unreadable');
  });

  it('refuses text over 1 MiB before reading it', () => {
    const padded = accepted + ' '.repeat(MAX_INTERCHANGE_LENGTH);
    expect(() => read999(padded)).toThrow(
      new X12ReadError('unreadable', 'interchange is larger than 1048576 characters (1 MiB)'),
    );
  });

  it('reads an IK3 of half a million elements as one error', () => {
    const wide = fixture('999-partial.x12').replace('IK3*PER*4*1000A*8', `IK3*PER*4*1000A*8${'*'.repeat(500_000)}`);
    const ack = read999(wide);
    expect(ack.sets[2]!.errors).toEqual([
      { segmentId: 'PER', position: 4, code: '8', elementPosition: 4, elementCode: 'I12' },
    ]);
  });

  it('refuses 60,000 AK2 loops that never close', () => {
    const loops = 'AK2*837*1~\n'.repeat(60_000);
    const text = accepted
      .replace('AK2*837*0001*005010X222A1~\nIK5*A~\n', loops)
      .replace('SE*6*0001~', `SE*${60_000 + 4}*0001~`);
    expect(() => read999(text)).toThrow(new X12ReadError('unreadable', 'AK2 without an IK5 before the next AK2'));
  });

  it('reads a 277CA of 5,000 claims, each once', () => {
    const ack = fixture('277ca-accepted-and-rejected.x12');
    const claim = ack.slice(ack.indexOf('HL*4*3*PT~'), ack.indexOf('HL*5*3*PT~'));
    const many = claim.repeat(5_000);
    const text = ack.replace(claim, many).replace('SE*29*0001~', `SE*${29 + 6 * 4_999}*0001~`);
    const report = read277(text);
    expect(report.claims.length).toBe(5_001);
    expect(report.claims[4_999]!.claimId).toBe('clm_0a1b2c3d4e5f6071');
  });

  it('refuses an STC amount over the cap and a negative zero stays zero', () => {
    const ack = fixture('277ca-accepted-and-rejected.x12');
    expect(outcome(read277, ack.replace('*WQ*125~', '*WQ*1000000001~'))).toBe('unreadable');
    expect(read277(ack.replace('*WQ*125~', '*WQ*-0~')).claims[0]!.chargeCents).toBe(0);
  });
});
