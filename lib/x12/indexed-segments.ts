// Segments read where they lie in the text, for the 271 read on every eligibility check (bench x12-read). A
// segment is its id and its bounds in the text; where its element separators are is found the first time one of
// its elements is read, and an element is sliced only when it is read. Splitting every segment into element
// strings was most of the cost of the envelope (the corpus's 3.7 µs a file, 1.6 read in place), and the rules read
// about 60 of a 271's 150 elements.
// The other readers keep plain segments (read-interchange.ts's SegmentWalk): they read every element anyway, and
// a large 835 must not be held whole behind the segments a posting keeps.
import type { Delimiters, Segment } from './read-interchange';
import { SegmentBounds } from './segment-bounds';
import { X12ReadError } from './x12-read-error';

/**
 * One interchange's text, with the element separators of the segments read so far: each segment's run of
 * positions is appended the first time one of its elements is read, so the list is never longer than the text.
 */
class IndexedText {
  /** `separatorCount` positions are in use; the rest is room reserved up front. */
  readonly separators: number[];
  separatorCount = 0;
  readonly element: number;

  constructor(
    readonly text: string,
    element: string,
  ) {
    this.element = element.charCodeAt(0);
    // Room for a 271's separators (about a quarter of its characters), reserved once: a list grown from empty
    // reallocated itself four times a file. Capped, as a long array made at its full length is a slow dictionary;
    // past the reserve the list grows as any array does.
    this.separators = new Array<number>(Math.min(text.length >> 2, RESERVED_SEPARATORS));
  }
}

const RESERVED_SEPARATORS = 4096;

/** A Segment whose `elements` and `raw` are read from the text on demand; `elementAt` reads one element alone. */
export class IndexedSegment implements Segment {
  /** Where this segment's separators start in `source.separators`; -1 until an element past the id is read. */
  private first = -1;
  private separatorCount = 0;
  private split: readonly string[] | undefined;

  constructor(
    readonly id: string,
    private readonly source: IndexedText,
    /** Bounds of the segment without its terminator (and without line breaks before the terminator). */
    private readonly start: number,
    private readonly end: number,
  ) {}

  get raw(): string {
    return this.source.text.slice(this.start, this.end);
  }

  get elements(): readonly string[] {
    if (!this.split) {
      const count = this.elementCount();
      const elements: string[] = [];
      for (let i = 0; i < count; i++) elements.push(this.elementAt(i)!);
      this.split = elements;
    }
    return this.split;
  }

  /** How many elements `elements` holds, the id included. */
  elementCount(): number {
    this.findSeparators();
    return this.separatorCount + 1;
  }

  /** `elements[position]` without splitting the segment: undefined past the last element. */
  elementAt(position: number): string | undefined {
    if (position === 0) return this.id;
    this.findSeparators();
    if (position > this.separatorCount) return undefined;
    const separators = this.source.separators;
    const from = separators[this.first + position - 1]! + 1;
    const to = position === this.separatorCount ? this.end : separators[this.first + position]!;
    return this.source.text.slice(from, to);
  }

  /** A charCodeAt scan bounded by the segment: a search in the whole text would run on into later segments. */
  private findSeparators(): void {
    if (this.first !== -1) return;
    const source = this.source;
    const { text, element } = source;
    const separators = source.separators;
    const first = source.separatorCount;
    let count = first;
    // The id holds no separator (it was checked as two or three letters and digits). The count is a local inside
    // the loop rather than the source's field: this scan is about a tenth of the read (bench x12-read).
    for (let i = this.start + this.id.length, end = this.end; i < end; i++) {
      if (text.charCodeAt(i) === element) separators[count++] = i;
    }
    source.separatorCount = count;
    this.first = first;
    this.separatorCount = count - first;
  }
}

/** `segment.elements[position]`, read in place when the segment is an IndexedSegment. */
export function elementAt(segment: Segment, position: number): string | undefined {
  return segment instanceof IndexedSegment ? segment.elementAt(position) : segment.elements[position];
}

/** How many elements `segment.elements` holds. */
export function elementCount(segment: Segment): number {
  return segment instanceof IndexedSegment ? segment.elementCount() : segment.elements.length;
}

const fail = (reason: string): never => {
  throw new X12ReadError('unreadable', reason);
};

/**
 * The segments of an interchange from `start`, one at a time, as IndexedSegments: the same segments, in the same
 * order and refused for the same reasons, as read-interchange.ts's SegmentWalk gives as plain ones.
 */
export class IndexedWalk {
  private read = 0;
  private readonly bounds: SegmentBounds;
  private readonly source: IndexedText;
  private readonly separator: number;

  constructor(text: string, start: number, delimiters: Delimiters) {
    this.bounds = new SegmentBounds(text, start, delimiters.segment);
    this.source = new IndexedText(text, delimiters.element);
    this.separator = delimiters.element.charCodeAt(0);
  }

  next(): IndexedSegment | null {
    const { bounds } = this;
    if (!bounds.advance()) return null;
    this.read++;
    const id = bounds.id(this.separator);
    if (id === null) fail(`not X12: segment ${this.read} has no valid segment id`);
    return new IndexedSegment(id!, this.source, bounds.start, bounds.end);
  }
}
