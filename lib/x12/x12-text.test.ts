// AsciiBytes answers the string methods the X12 readers use exactly as the string its bytes spell would, so a
// reader given an upload's bytes reads what it would read from the text.
import fs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claimsOf, MAX_835_LENGTH, read835s, scan835s } from './read-835';
import { checkInterchangeEnvelope } from './read-interchange';
import { AsciiBytes, textOf, type X12Text } from './x12-text';

const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 40 });
const bytesOf = (text: string) => new AsciiBytes(Buffer.from(text, 'latin1'));

describe('AsciiBytes', () => {
  it('answers length, charAt, charCodeAt, indexOf, lastIndexOf, slice and startsWith as the string does', () => {
    const position = fc.integer({ min: -50, max: 50 });
    fc.assert(
      fc.property(
        ascii,
        fc.string({ maxLength: 3 }).filter((s) => /^[\x00-\x7f]*$/.test(s)),
        position,
        position,
        (text, search, a, b) => {
          const bytes = bytesOf(text);
          expect(bytes.length).toBe(text.length);
          expect(bytes.charAt(a)).toBe(text.charAt(a));
          expect(bytes.charCodeAt(a)).toBe(text.charCodeAt(a));
          expect(bytes.indexOf(search, a)).toBe(text.indexOf(search, a));
          expect(bytes.lastIndexOf(search, a)).toBe(text.lastIndexOf(search, a));
          expect(bytes.lastIndexOf(search)).toBe(text.lastIndexOf(search));
          expect(bytes.slice(a, b)).toBe(text.slice(a, b));
          expect(bytes.slice(a)).toBe(text.slice(a));
          expect(bytes.startsWith(search, a)).toBe(text.startsWith(search, a));
          expect(textOf(bytes)).toBe(text);
        },
      ),
      // A negative position: String counts it as 0, Buffer from the end (a run found the first of these).
      {
        numRuns: 500,
        examples: [
          ['`', '`', -1, 0],
          ['a*ba', 'a', -3, 0],
        ],
      },
    );
  });

  it('reads every 835 fixture and envelope to the same result as its text', () => {
    const fixtures = fs
      .readdirSync('lib/x12/fixtures')
      .filter((name) => name.startsWith('835') && name.endsWith('.x12'));
    expect(fixtures.length).toBeGreaterThan(2);
    for (const name of fixtures) {
      const text = fs.readFileSync(`lib/x12/fixtures/${name}`, 'latin1');
      const bytes = bytesOf(text);
      const outcome = (read: () => unknown) => {
        try {
          return read();
        } catch (error) {
          return String(error);
        }
      };
      expect(
        outcome(() => read835s(bytes)),
        name,
      ).toEqual(outcome(() => read835s(text)));
      const envelope = (of: X12Text) => () => checkInterchangeEnvelope(of, MAX_835_LENGTH, () => true);
      expect(outcome(envelope(bytes)), name).toEqual(outcome(envelope(text)));
      const scanned = outcome(() => scan835s(bytes));
      if (Array.isArray(scanned)) {
        expect([...claimsOf(bytes, scanned[0])], name).toEqual(read835s(text)[0]!.claims);
      }
    }
  });
});
