// What an 835 says, as one SHA-256: its segments from the one after ST to the one before SE, each as its elements
// (components split out), so a copy of the same 835 sent again under other control numbers (ISA13, GS06, ST02),
// other delimiters or other line breaks digests the same, and any other 835 differently. Pure.
import { createHash } from 'node:crypto';
import { MAX_835_LENGTH, type Scanned835 } from '../x12/read-835';
import { walkInterchange } from '../x12/read-interchange';
import type { X12Text } from '../x12/x12-text';

/** The hex SHA-256 of the 835 scan835s found at `scanned.start` in `text` (the text it scanned). */
export function contentDigest(text: X12Text, scanned: Pick<Scanned835, 'start' | 'delimiters'>): string {
  const hash = createHash('sha256');
  for (const segment of walkInterchange(text, MAX_835_LENGTH, { from: scanned.start })) {
    if (segment.id === 'SE') break;
    if (segment.id === 'ST') continue;
    // JSON: unambiguous whatever the elements hold; one line per segment.
    hash.update(`${JSON.stringify(segment.elements.map((element) => element.split(scanned.delimiters.component)))}\n`);
  }
  return hash.digest('hex');
}
