// The 271's segments read in place (indexed-segments.ts) against the plain walk every other reader uses: the same
// refusals with the same reasons, and the same segments (id, elements, raw), on every fixture and on edited ones.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { element } from './element';
import { elementAt, elementCount } from './indexed-segments';
import { readInterchange, readInterchangeInPlace, type Interchange, type Segment } from './read-interchange';
import { X12ReadError } from './x12-read-error';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const texts = fs
  .readdirSync(fixtures)
  .filter((name) => name.endsWith('.x12') || name.endsWith('.txt'))
  .map((name) => fs.readFileSync(path.join(fixtures, name), 'utf8'));

/** What a reader made of a text: its refusal, or every segment as plain data read through each accessor. */
function outcome(read: (text: string) => Interchange, text: string): unknown {
  let interchange: Interchange;
  try {
    interchange = read(text);
  } catch (error) {
    if (!(error instanceof X12ReadError)) throw error;
    return { kind: error.kind, reason: error.reason };
  }
  const plain = (segment: Segment) => {
    const count = elementCount(segment);
    const positions = Array.from({ length: count + 2 }, (_, i) => i);
    return {
      id: segment.id,
      raw: segment.raw,
      elements: [...segment.elements],
      count,
      at: positions.map((i) => elementAt(segment, i)),
      of: positions.map((i) => element(segment, i)),
    };
  };
  return {
    delimiters: interchange.delimiters,
    controlNumber: interchange.controlNumber,
    isa: plain(interchange.isa),
    ta1: interchange.ta1.map(plain),
    groups: interchange.groups.map((group) => ({
      ...group,
      transactions: group.transactions.map((set) => ({ ...set, segments: set.segments.map(plain) })),
    })),
  };
}

const expectSameReading = (text: string) =>
  expect(outcome(readInterchangeInPlace, text)).toEqual(outcome(readInterchange, text));

// Edits made of the characters that decide how a text splits: delimiters of either fixture style, line breaks,
// and the letters and digits of segment ids.
const piece = fc.string({
  unit: fc.constantFrom('*', '|', '~', '\n', '\r', ':', '^', ' ', 'E', 'B', 'Z', '9', 'S'),
  maxLength: 6,
});
// An edit anywhere, or near the start of a segment (where its id is read).
const edit = fc.record({ at: fc.nat(), nearSegmentStart: fc.boolean(), cut: fc.nat({ max: 8 }), insert: piece });

function applyEdit(
  text: string,
  { at, nearSegmentStart, cut, insert }: typeof edit extends fc.Arbitrary<infer E> ? E : never,
) {
  let position = at % (text.length + 1);
  if (nearSegmentStart) {
    const starts = [...text.matchAll(/[~\n|]/g)].map((match) => match.index + 1);
    position = Math.min(text.length, (starts[at % Math.max(1, starts.length)] ?? 0) + (at % 5));
  }
  return text.slice(0, position) + insert + text.slice(position + cut);
}

describe('readInterchangeInPlace', () => {
  it.each(texts.map((text, i) => [i, text] as const))('reads fixture %i as readInterchange does', (_, text) => {
    expectSameReading(text);
  });

  it('reads edited fixtures as readInterchange does: the same refusal or the same segments', () => {
    fc.assert(
      fc.property(fc.constantFrom(...texts), fc.array(edit, { minLength: 1, maxLength: 4 }), (text, edits) => {
        expectSameReading(edits.reduce(applyEdit, text));
      }),
      { numRuns: 3000 },
    );
  });
});
