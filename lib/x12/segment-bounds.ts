// Where each segment of an interchange lies, one after another, and its id. Both segment walks step through the
// text with it (read-interchange.ts's, which splits every segment, and indexed-segments.ts's, which reads the 271
// in place), so they find the same segments and refuse a truncated text or a bad id for the same reasons.
import type { X12Text } from './x12-text';
import { X12ReadError } from './x12-read-error';

function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}

// The segment ids the readers compare against, each under the number its characters' codes spell (two and three
// characters below 128 never collide): an id read from the text is one of these very strings, so reading it
// allocates nothing and comparing it with a literal is a pointer comparison. Others are sliced. A table indexed by
// a multiplicative hash of that number, rather than a Map: the lookup runs for every segment.
const ID_SLOTS = 256;
const idSlot = (key: number): number => Math.imul(key, 0x85ebca6b) >>> 24;
const SLOT_KEYS = new Int32Array(ID_SLOTS);
const SLOT_IDS: string[] = new Array<string>(ID_SLOTS).fill('');
for (const id of [
  ...['ISA', 'IEA', 'GS', 'GE', 'ST', 'SE', 'TA1', 'BHT', 'HL', 'NM1', 'TRN', 'REF', 'N3', 'N4', 'PER', 'PRV'],
  ...['DMG', 'INS', 'HI', 'DTP', 'MPI', 'AAA', 'EB', 'HSD', 'MSG', 'III', 'LS', 'LE', 'AK1', 'AK2', 'AK9', 'IK5'],
]) {
  let key = 0;
  for (let i = 0; i < id.length; i++) key = key * 128 + id.charCodeAt(i);
  const slot = idSlot(key);
  // On a collision the later id would simply be sliced like any other (this multiplier gives none for this list).
  if (SLOT_KEYS[slot] === 0) {
    SLOT_KEYS[slot] = key;
    SLOT_IDS[slot] = id;
  }
}

export class SegmentBounds {
  /** The segment `advance()` found: from `start` up to `end`, without its terminator or line breaks before it. */
  start = 0;
  end = 0;
  private next: number;

  constructor(
    private readonly text: X12Text,
    from: number,
    private readonly terminator: string,
  ) {
    this.next = from;
  }

  /** Moves to the next segment; false at the end of the text. Throws X12ReadError when a segment has no terminator. */
  advance(): boolean {
    const text = this.text;
    const length = text.length;
    let pos = this.next;
    // Line breaks after a terminator are allowed (and are the terminator's companions, not data).
    while (pos < length && isLineBreak(text.charCodeAt(pos))) pos++;
    if (pos >= length) {
      this.next = pos;
      return false;
    }
    const stop = text.indexOf(this.terminator, pos);
    if (stop === -1) {
      throw new X12ReadError(
        'unreadable',
        `truncated segment at the end of the interchange (${text.slice(pos, pos + 3).trim() || 'blank'} has no terminator)`,
      );
    }
    let end = stop;
    while (end > pos && isLineBreak(text.charCodeAt(end - 1))) end--;
    this.start = pos;
    this.end = end;
    this.next = stop + 1;
    return true;
  }

  /**
   * The current segment's id: the text before its first element separator when that is two or three of A-Z and
   * 0-9, else null. Looks at four characters at most.
   */
  id(separator: number): string | null {
    const { text, start, end } = this;
    let key = 0;
    let i = start;
    for (; i < end && i - start < 4; i++) {
      const c = text.charCodeAt(i);
      if (c === separator) break;
      const isUpper = c >= 65 && c <= 90;
      const isDigit = c >= 48 && c <= 57;
      if (!isUpper && !isDigit) return null;
      key = key * 128 + c;
    }
    const length = i - start;
    if (length < 2 || length > 3) return null;
    const slot = idSlot(key);
    return SLOT_KEYS[slot] === key ? SLOT_IDS[slot]! : text.slice(start, i);
  }
}
