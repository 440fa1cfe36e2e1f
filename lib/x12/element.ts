// Reading one element of a segment that may be absent: X12 leaves out trailing empty elements, so an element
// past the end and an empty one mean the same, ''.
import { elementAt } from './indexed-segments';
import type { Segment } from './read-interchange';

/**
 * Element `position` (1-based, as the TR3 numbers them: EB01 is 1) of `segment`, or '' when absent. A 271's
 * segments (IndexedSegment) slice the one element asked for instead of splitting the segment (elementAt).
 */
export function element(segment: Segment | null | undefined, position: number): string {
  if (!segment) return '';
  return elementAt(segment, position) ?? '';
}
