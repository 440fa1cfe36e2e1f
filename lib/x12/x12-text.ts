// An interchange as the X12 readers read it: a string, or the bytes of an ASCII upload read where they lie.
// The readers use only these string methods, so a string is an X12Text as it is; AsciiBytes answers them from a
// Buffer. A 50 MiB 835 uploaded as bytes is then held once, as those bytes: turning it into a string would hold it
// twice while converting and once more as the string for the whole posting (bench era-post rssGrowthMb).
export type X12Text = Pick<
  string,
  'length' | 'charAt' | 'charCodeAt' | 'indexOf' | 'lastIndexOf' | 'slice' | 'startsWith'
>;

/** Bytes every one of which is ASCII (checked by the caller), read as the string they spell. */
export class AsciiBytes implements X12Text {
  constructor(private readonly bytes: Buffer) {}

  get length(): number {
    return this.bytes.length;
  }

  charAt(index: number): string {
    return index >= 0 && index < this.bytes.length ? String.fromCharCode(this.bytes[index]!) : '';
  }

  charCodeAt(index: number): number {
    return this.bytes[index] ?? NaN;
  }

  indexOf(search: string, position = 0): number {
    return this.bytes.indexOf(search, Math.max(0, position), 'latin1');
  }

  lastIndexOf(search: string, position = Infinity): number {
    // String#lastIndexOf counts a negative position as 0; Buffer's counts it from the end.
    return this.bytes.lastIndexOf(search, Math.max(0, position), 'latin1');
  }

  slice(start = 0, end = this.bytes.length): string {
    const from = start < 0 ? Math.max(0, this.bytes.length + start) : Math.min(start, this.bytes.length);
    const to = end < 0 ? Math.max(0, this.bytes.length + end) : Math.min(end, this.bytes.length);
    return from < to ? this.bytes.toString('latin1', from, to) : '';
  }

  startsWith(search: string, position = 0): boolean {
    // As String#startsWith: a negative position is 0 (slice would count it from the end).
    const from = Math.max(0, position);
    return this.slice(from, from + search.length) === search;
  }

  toString(): string {
    return this.bytes.toString('latin1');
  }
}

/** The whole text as a string: a copy for AsciiBytes, so only for a text known to be small. */
export const textOf = (text: X12Text): string => (typeof text === 'string' ? text : text.slice(0));
