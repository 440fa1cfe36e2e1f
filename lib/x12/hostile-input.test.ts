// The reader's work on hostile 271s grows linearly with their size. Work is counted, never timed (time belongs in
// bench/x12-read.ts): every built-in search the reader runs is wrapped for the duration of one read, and the
// characters or items each one examines are added up.
import { describe, expect, it } from 'vitest';
import { buildHostile271, hostileCodes, type HostileShape } from './fixtures/hostile-271';
import { read271 } from './read-271';
import { readEligibility } from './read-eligibility';

type Searches = {
  stringIndexOf: typeof String.prototype.indexOf;
  arrayIncludes: typeof Array.prototype.includes;
  arrayIndexOf: typeof Array.prototype.indexOf;
};

/** Characters and array items examined by String#indexOf, Array#includes and Array#indexOf while `run` runs. */
function countSearchWork<T>(run: () => T): { result: T; examined: number } {
  const original: Searches = {
    stringIndexOf: String.prototype.indexOf,
    arrayIncludes: Array.prototype.includes,
    arrayIndexOf: Array.prototype.indexOf,
  };
  let examined = 0;
  // A search examines from its start to the end of what it found, or to the end when it finds nothing.
  const from = (position: number | undefined, length: number) =>
    Math.max(0, Math.min(Math.trunc(position ?? 0), length));
  String.prototype.indexOf = function indexOf(this: string, search: string, position?: number) {
    const found = original.stringIndexOf.call(this, search, position);
    examined += (found === -1 ? this.length : found + search.length) - from(position, this.length);
    return found;
  };
  Array.prototype.includes = function includes(this: unknown[], item: unknown, position?: number) {
    const found = original.arrayIndexOf.call(this, item, position);
    examined += (found === -1 ? this.length : found + 1) - from(position, this.length);
    return found !== -1 || (item !== item && original.arrayIncludes.call(this, item, position));
  };
  Array.prototype.indexOf = function indexOf(this: unknown[], item: unknown, position?: number) {
    const found = original.arrayIndexOf.call(this, item, position);
    examined += (found === -1 ? this.length : found + 1) - from(position, this.length);
    return found;
  };
  try {
    const result = run();
    return { result, examined };
  } finally {
    String.prototype.indexOf = original.stringIndexOf;
    Array.prototype.includes = original.arrayIncludes;
    Array.prototype.indexOf = original.arrayIndexOf;
  }
}

const SIZE = 512 * 1024;
const options = { dateOfService: '2025-03-01', serviceTypeCode: '30' };
const shapes: HostileShape[] = ['many short segments', 'many empty elements', 'many repetitions', 'spaced message'];

describe('reading a hostile 512 KiB 271', () => {
  it.each(shapes)('examines at most four characters per input character with %s', (shape) => {
    const text = buildHostile271(shape, SIZE);
    expect(text.length).toBeGreaterThan(SIZE * 0.99);
    const { result, examined } = countSearchWork(() => readEligibility(text, options));
    expect(result.status).toBe('active');
    // A reader that searches the whole text once per segment, or a list of codes once per code, examines
    // billions here (the reader before this bound did: 130,000 segments each searched on to the end).
    expect(examined).toBeLessThanOrEqual(4 * text.length);
  });

  it('keeps every segment of a 2120 entity made of 130,000 bare segments', () => {
    const text = buildHostile271('many short segments', SIZE);
    const entity = read271(text).loops.find((loop) => loop.level === 'C')!.benefits[1]!.loop2120[0]!;
    const bare = text.split('\nN3~').length - 1;
    expect(bare).toBeGreaterThan(130_000);
    expect([entity.segments[0]!.raw, entity.segments.length]).toEqual(['NM1*P3*1*JONES*MARCUS', bare + 1]);
  });

  it('reads a segment of half a million empty elements as one MSG', () => {
    const text = buildHostile271('many empty elements', SIZE);
    const message = read271(text).loops.find((loop) => loop.level === 'C')!.benefits[0]!.msg[0]!;
    expect([message.elements[1], message.elements.length > 500_000, readEligibility(text, options).network]).toEqual([
      'PROVIDER IS IN NETWORK',
      true,
      'IN',
    ]);
  });

  it('lists every one of 100,000 distinct prior-auth codes once, in order', () => {
    const { priorAuthCodes } = readEligibility(buildHostile271('many repetitions', SIZE), options);
    expect(priorAuthCodes.length).toBeGreaterThan(100_000);
    expect(priorAuthCodes).toEqual(['30', ...hostileCodes(priorAuthCodes.length - 1)]);
  });

  it('finds no network word in a message of words split by long runs of spaces', () => {
    expect(readEligibility(buildHostile271('spaced message', SIZE), options).network).toBe('UNKNOWN');
  });
});
