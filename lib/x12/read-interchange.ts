// Reads any X12 interchange into segments, taking the delimiters from the ISA and checking the envelope
// (ISA/IEA, GS/GE, ST/SE counts and control numbers). It knows nothing about what a 270 or 271 means.
import { elementAt, elementCount, IndexedWalk } from './indexed-segments';
import { SegmentBounds } from './segment-bounds';
import type { X12Text } from './x12-text';
import { X12ReadError } from './x12-read-error';

export type Delimiters = { element: string; repetition: string; component: string; segment: string };

/** One segment: `elements[0]` is the segment id, so `elements[1]` is EB01 on an EB. `raw` is verbatim. */
export type Segment = { readonly id: string; readonly elements: readonly string[]; readonly raw: string };

export type TransactionSet = { id: string; controlNumber: string; segments: Segment[] };
export type FunctionalGroup = { functionalId: string; controlNumber: string; transactions: TransactionSet[] };
export type Interchange = {
  delimiters: Delimiters;
  isa: Segment;
  controlNumber: string;
  /** TA1 segments sit between ISA and the first GS (X12.5 interchange acknowledgment). */
  ta1: Segment[];
  groups: FunctionalGroup[];
};

/**
 * The largest interchange we read, in UTF-16 code units (X12 is ASCII, so the same number of bytes): 1 MiB. A
 * 271 for one member is a few kilobytes; anything near this is a fault or an attack, refused before any parsing.
 * A transport that caps the response body at MAX_INTERCHANGE_LENGTH bytes never hands us more than this.
 */
export const MAX_INTERCHANGE_LENGTH = 1024 * 1024;

const ISA_LENGTH = 106;
// Offsets of the 16 element separators inside the fixed-width ISA (X12.5): ISA01 starts at 4, etc.
const ISA_SEPARATOR_OFFSETS = [3, 6, 17, 20, 31, 34, 50, 53, 69, 76, 81, 83, 89, 99, 101, 103];

const fail = (reason: string): never => {
  throw new X12ReadError('unreadable', reason);
};

const keepAll = () => true;

/** One delimiter character (a single UTF-16 unit): A-Z, a-z, 0-9 or a space. */
function isAlphanumericOrSpace(character: string): boolean {
  const c = character.charCodeAt(0);
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 32;
}

/**
 * Throws X12ReadError('unreadable') when the text is not a well-formed interchange or is longer than `maxLength`
 * (MAX_INTERCHANGE_LENGTH unless a reader of large files, the 835's, says otherwise). Work is linear in the text's
 * length, whatever the text holds.
 */
export function readInterchange(text: string, maxLength: number = MAX_INTERCHANGE_LENGTH): Interchange {
  return checkInterchangeEnvelope(text, maxLength, keepAll);
}

/**
 * The envelope of the interchange, checked exactly as readInterchange checks it, keeping the segments only of the
 * transaction sets `keep` names. The others are shown, each as it is read, to `watch.onSegment` (with `watch.at`
 * told its start): a reader of large files reads its sets in the same walk instead of holding them all at once.
 * A segment is shown before the envelope is known to be sound: what the watcher reads counts only once this returns.
 */
export function checkInterchangeEnvelope(
  text: X12Text,
  maxLength: number,
  keep: (transactionId: string) => boolean,
  watch?: { at?: { start: number }; onSegment(segment: Segment, delimiters: Delimiters): void },
): Interchange {
  const { start, delimiters } = readDelimiters(text, maxLength);
  const onSegment = watch && ((segment: Segment) => watch.onSegment(segment, delimiters));
  return assembleEnvelope(new SegmentWalk(text, start, delimiters, watch?.at), delimiters, keep, onSegment);
}

/**
 * The interchange exactly as readInterchange reads it, as IndexedSegments (indexed-segments.ts): each segment's
 * elements are read from the text only when asked for. For a small interchange read on a hot path, the 271.
 */
export function readInterchangeInPlace(text: string): Interchange {
  const { start, delimiters } = readDelimiters(text, MAX_INTERCHANGE_LENGTH);
  return assembleEnvelope(new IndexedWalk(text, start, delimiters), delimiters, keepAll);
}

/** Where a walk starts (an offset the walk itself gave, default the ISA) and where it tells each segment's start. */
export type WalkPosition = { from?: number; at?: { start: number } };

/**
 * Every segment of an interchange readInterchange accepted, one at a time, none kept: from the ISA, or from the
 * start of a segment an earlier walk told through `at` (a large file's 835 is read again from its ST).
 */
export function walkInterchange(text: X12Text, maxLength: number, position: WalkPosition = {}): Iterable<Segment> {
  const { start, delimiters } = readDelimiters(text, maxLength);
  return segmentsOf(new SegmentWalk(text, Math.max(start, position.from ?? 0), delimiters, position.at));
}

function* segmentsOf(walk: SegmentWalk): Generator<Segment> {
  for (let segment = walk.next(); segment; segment = walk.next()) yield segment;
}

function readDelimiters(text: X12Text, maxLength: number): { start: number; delimiters: Delimiters } {
  if (text.length > maxLength)
    fail(`interchange is larger than ${maxLength} characters (${maxLength / 1024 / 1024} MiB)`);
  let start = 0;
  // A UTF-8 BOM or leading blank lines are transport noise, not content.
  while (start < text.length && (text.charCodeAt(start) <= 32 || text.charCodeAt(start) === 0xfeff)) start++;
  if (!text.startsWith('ISA', start)) fail('not X12: the text does not start with an ISA segment');
  if (text.length - start < ISA_LENGTH) fail('ISA segment is shorter than 106 characters');

  const element = text.charAt(start + 3);
  const elementCode = text.charCodeAt(start + 3);
  for (const offset of ISA_SEPARATOR_OFFSETS) {
    if (text.charCodeAt(start + offset) !== elementCode)
      fail('ISA segment is not 106 characters with fixed-width elements');
  }
  const repetition = text.charAt(start + 82);
  const component = text.charAt(start + 104);
  const segment = text.charAt(start + 105);
  const delimiters: Delimiters = { element, repetition, component, segment };
  // Compared as characters rather than through a Set and a regex: this runs once per interchange on the hot path.
  const isDistinct = element !== component && element !== segment && component !== segment;
  if (
    !isDistinct ||
    isAlphanumericOrSpace(element) ||
    isAlphanumericOrSpace(component) ||
    isAlphanumericOrSpace(segment)
  ) {
    fail('ISA delimiters are not distinct non-alphanumeric characters');
  }
  return { start, delimiters };
}

/**
 * The segments of an interchange from `start`, one at a time: `next()` reads the next one, or gives null at the end.
 * A cursor rather than a generator: the envelope check reads every segment through it, and resuming a generator
 * cost a tenth of reading a 271 (bench x12-read).
 */
class SegmentWalk {
  private read = 0;
  private readonly bounds: SegmentBounds;
  private readonly separator: number;
  // Scratch space for one segment's elements, copied out at their exact count: an array grown by push reserves
  // room for 16 or more and most segments have far fewer. It is this walk's own, so it goes with the walk and
  // keeps no slice of the interchange (PHI) past it.
  private readonly scratch: string[] = [];

  constructor(
    private readonly text: X12Text,
    start: number,
    private readonly delimiters: Delimiters,
    private readonly at?: { start: number },
  ) {
    this.bounds = new SegmentBounds(text, start, delimiters.segment);
    this.separator = delimiters.element.charCodeAt(0);
  }

  next(): Segment | null {
    const { bounds, scratch } = this;
    if (!bounds.advance()) return null;
    const element = this.delimiters.element;
    const raw = this.text.slice(bounds.start, bounds.end);
    // Elements by indexOf within the segment: measurably faster than String#split on each segment slice. The
    // search runs in `raw`, never in `text`: a search in the whole text for the last element's separator would
    // scan on into later segments, once per segment, which is quadratic on a text of many short segments.
    let count = 0;
    let from = 0;
    for (;;) {
      const next = raw.indexOf(element, from);
      if (next === -1) {
        scratch[count++] = raw.slice(from);
        break;
      }
      scratch[count++] = raw.slice(from, next);
      from = next + 1;
    }
    const elements = scratch.slice(0, count);
    const id = bounds.id(this.separator);
    this.read++;
    if (id === null) fail(`not X12: segment ${this.read} has no valid segment id`);
    if (this.at) this.at.start = bounds.start;
    return { id: id!, elements, raw };
  }
}

/**
 * `onSegment` sees each segment before the envelope does. Elements are read through elementAt, which reads an
 * IndexedSegment's few envelope elements in place.
 */
function assembleEnvelope(
  walk: { next(): Segment | null },
  delimiters: Delimiters,
  keep: (transactionId: string) => boolean,
  onSegment?: (segment: Segment) => void,
): Interchange {
  const isa = walk.next()!;
  onSegment?.(isa);
  if (elementCount(isa) !== 17) fail('ISA segment does not have 16 elements');
  const controlNumber = elementAt(isa, 13)!;
  const ta1: Segment[] = [];
  const groups: FunctionalGroup[] = [];
  let group: FunctionalGroup | null = null;
  let transaction: TransactionSet | null = null;
  let keeping = false;
  // Segments of the open transaction set, counted whether or not they are kept.
  let counted = 0;
  let iea: Segment | null = null;

  for (let seg = walk.next(); seg; seg = walk.next()) {
    onSegment?.(seg);
    if (iea) fail(`segment ${seg.id} after IEA`);
    if (transaction) {
      if (keeping) transaction.segments.push(seg);
      counted++;
      if (seg.id === 'SE') {
        const count = Number(elementAt(seg, 1));
        if (count !== counted) {
          fail(
            `SE01 says ${elementAt(seg, 1) ?? ''} segments, transaction set ${transaction.controlNumber} has ${counted}`,
          );
        }
        if (elementAt(seg, 2) !== transaction.controlNumber) fail('SE02 does not match ST02');
        transaction = null;
      } else if (seg.id === 'ST' || seg.id === 'GE' || seg.id === 'IEA' || seg.id === 'GS') {
        fail(`missing SE before ${seg.id}`);
      }
      continue;
    }
    switch (seg.id) {
      case 'TA1':
        if (group) fail('TA1 inside a functional group');
        ta1.push(seg);
        break;
      case 'GS':
        if (group) fail('missing GE before GS');
        group = { functionalId: elementAt(seg, 1) ?? '', controlNumber: elementAt(seg, 6) ?? '', transactions: [] };
        groups.push(group);
        break;
      case 'ST':
        if (!group) fail('ST outside a functional group');
        transaction = { id: elementAt(seg, 1) ?? '', controlNumber: elementAt(seg, 2) ?? '', segments: [] };
        keeping = keep(transaction.id);
        if (keeping) transaction.segments.push(seg);
        counted = 1;
        group!.transactions.push(transaction);
        break;
      case 'GE':
        if (!group) fail('GE without GS');
        if (Number(elementAt(seg, 1)) !== group!.transactions.length)
          fail('GE01 does not match the number of transaction sets');
        if (elementAt(seg, 2) !== group!.controlNumber) fail('GE02 does not match GS06');
        group = null;
        break;
      case 'IEA':
        if (group) fail('missing GE before IEA');
        if (Number(elementAt(seg, 1)) !== groups.length) fail('IEA01 does not match the number of functional groups');
        if (elementAt(seg, 2) !== controlNumber) fail('IEA02 does not match ISA13');
        iea = seg;
        break;
      default:
        fail(`segment ${seg.id} outside a transaction set`);
    }
  }
  if (transaction) fail('missing SE');
  if (group) fail('missing GE');
  if (!iea) fail('missing IEA');
  return { delimiters, isa, controlNumber, ta1, groups };
}
