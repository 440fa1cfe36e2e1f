// Where each segment of an interchange lies, one after another. Both segment walks step through the text with it
// (read-interchange.ts's, which splits every segment, and indexed-segments.ts's, which reads the 271 in place), so
// they find the same segments and refuse a truncated text for the same reason.
import type { X12Text } from './x12-text';
import { X12ReadError } from './x12-read-error';

function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
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
}
