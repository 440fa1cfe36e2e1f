// Reads an interchange of 835 remittances (005010X221A1) into balanced remittance objects: the envelope rules
// are the 271 reader's (read-interchange.ts), each transaction set is read by read-remittance.ts, segment by segment
// as the text is walked, and must pass the TR3's three balancing rules. Posting what a remittance says is not this
// module's business.
import { assertRemittanceBalanced } from './assert-remittance-balanced';
import { assertNoControlCharacters } from './control-characters';
import {
  checkInterchangeEnvelope,
  walkInterchange,
  type Delimiters,
  type Interchange,
  type Segment,
} from './read-interchange';
import { remittanceReader, type Remittance } from './read-remittance';
import { X12ReadError } from './x12-read-error';

/**
 * The largest 835 interchange read: 64 MiB, a large group's weekly Medicare file (tens of thousands of claims).
 * Every amount is capped at MAX_AMOUNT_CENTS and every sum the balancing rules take is checked to stay a safe
 * integer (assert-remittance-balanced.ts), so the cap is about memory, not arithmetic.
 */
export const MAX_835_LENGTH = 64 * 1024 * 1024;

/**
 * Every 835 of the interchange, in file order: what the webhook and the upload post. All or nothing: throws
 * X12ReadError ('ta1' or '999' for an acknowledgment instead of an 835, 'unreadable' otherwise) when the text is
 * not an interchange of 835s only, or when any 835 has no claim (CLP), has a negative BPR02 or does not balance;
 * X12ControlCharacterError (an X12ReadError) when the text holds a control character (control-characters.ts).
 * `onSegment` is shown each segment of each 835 (ST to SE, with the 835's 0-based index) as it is read, for a
 * caller that reads more of the 835 than the remittance object holds without a second copy of its segments.
 *
 * The envelope is checked first in one lazy walk (nothing kept but the segments of a refused acknowledgment), and
 * each 835 is then read in a second walk: the interchange's segments are never all held at once, which on a
 * 64 MiB file is several times the text itself.
 */
export function read835s(
  text: string,
  maxLength: number = MAX_835_LENGTH,
  onSegment?: (segment: Segment, index: number, delimiters: Delimiters) => void,
): Remittance[] {
  assertNoControlCharacters(text);
  const interchange = checkInterchangeEnvelope(text, maxLength, (id) => id !== '835');
  refuseOtherThan835s(interchange);
  const { delimiters } = interchange;
  const remittances: Remittance[] = [];
  let reader: ReturnType<typeof remittanceReader> | null = null;
  let controlNumber = '';
  for (const segment of walkInterchange(text, maxLength)) {
    if (segment.id === 'ST') {
      reader = remittanceReader(delimiters);
      controlNumber = segment.elements[2] ?? '';
    } else if (segment.id === 'SE') {
      onSegment?.(segment, remittances.length, delimiters);
      remittances.push(checked835(reader!.finish(), controlNumber));
      reader = null;
      continue;
    } else if (reader) {
      reader.take(segment);
    }
    if (reader) onSegment?.(segment, remittances.length, delimiters);
  }
  return remittances;
}

function refuseOtherThan835s(interchange: Interchange): void {
  const ta1 = interchange.ta1[0];
  if (ta1) {
    const note = ta1.elements[5] ? ` (TA105 note code ${ta1.elements[5]})` : '';
    throw new X12ReadError('ta1', `interchange rejected with a TA1 instead of an 835${note}`);
  }
  const transactions = interchange.groups.flatMap((group) => group.transactions);
  const ack = transactions.find((transaction) => transaction.id === '999');
  if (ack) {
    const ak9 = ack.segments.find((segment) => segment.id === 'AK9');
    throw new X12ReadError(
      '999',
      `999 acknowledgment${ak9 ? ` (AK9 ${ak9.elements[1] ?? ''})` : ''} instead of an 835`,
    );
  }
  const other = transactions.find((transaction) => transaction.id !== '835');
  if (other) throw new X12ReadError('unreadable', `transaction set ${JSON.stringify(other.id)} is not an 835`);
  if (transactions.length === 0) throw new X12ReadError('unreadable', 'no ST*835 transaction set in the interchange');
}

function checked835(remittance: Remittance, controlNumber: string): Remittance {
  if (remittance.claims.length === 0) {
    throw new X12ReadError(
      'unreadable',
      `835 ${JSON.stringify(controlNumber)} is empty: it has no claim payment (CLP)`,
    );
  }
  assertRemittanceBalanced(remittance);
  return remittance;
}

/** The one 835 of an interchange, as the command line reads a file: an interchange holding several is refused. */
export function read835(text: string): Remittance {
  const remittances = read835s(text);
  if (remittances.length > 1) {
    throw new X12ReadError('unreadable', `the interchange holds ${remittances.length} 835s; read one 835 per file`);
  }
  return remittances[0]!;
}
