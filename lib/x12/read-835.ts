// Reads an interchange of 835 remittances (005010X221A1) into balanced remittance objects: the envelope rules
// are the 271 reader's (read-interchange.ts), each transaction set is read by read-remittance.ts and must pass the
// TR3's three balancing rules. Posting what a remittance says is not this module's business.
import { assertRemittanceBalanced } from './assert-remittance-balanced';
import { assertNoControlCharacters } from './control-characters';
import { readInterchange, type Interchange } from './read-interchange';
import { readRemittance, type Remittance } from './read-remittance';
import { X12ReadError } from './x12-read-error';

/**
 * The largest 835 interchange read: 64 MiB, a large group's weekly Medicare file (tens of thousands of claims).
 * Every amount is capped at MAX_AMOUNT_CENTS and every sum the balancing rules take is checked to stay a safe
 * integer (assert-remittance-balanced.ts), so the cap is about memory, not arithmetic.
 */
export const MAX_835_LENGTH = 64 * 1024 * 1024;

/** read835s, also handing back the interchange it read, so a caller needing its segments does not read it twice. */
export function read835Interchange(
  text: string,
  maxLength: number = MAX_835_LENGTH,
): { interchange: Interchange; remittances: Remittance[] } {
  assertNoControlCharacters(text);
  const interchange = readInterchange(text, maxLength);
  return { interchange, remittances: remittancesOf(interchange) };
}

/**
 * Every 835 of the interchange, in file order: what the webhook and the upload post. All or nothing: throws
 * X12ReadError ('ta1' or '999' for an acknowledgment instead of an 835, 'unreadable' otherwise) when the text is
 * not an interchange of 835s only, or when any 835 has no claim (CLP), has a negative BPR02 or does not balance;
 * X12ControlCharacterError (an X12ReadError) when the text holds a control character (control-characters.ts).
 */
export function read835s(text: string, maxLength?: number): Remittance[] {
  return read835Interchange(text, maxLength).remittances;
}

function remittancesOf(interchange: Interchange): Remittance[] {
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

  return transactions.map((transaction) => {
    const remittance = readRemittance(transaction.segments, interchange.delimiters);
    if (remittance.claims.length === 0) {
      throw new X12ReadError(
        'unreadable',
        `835 ${JSON.stringify(transaction.controlNumber)} is empty: it has no claim payment (CLP)`,
      );
    }
    assertRemittanceBalanced(remittance);
    return remittance;
  });
}

/** The one 835 of an interchange, as the command line reads a file: an interchange holding several is refused. */
export function read835(text: string): Remittance {
  const remittances = read835s(text);
  if (remittances.length > 1) {
    throw new X12ReadError('unreadable', `the interchange holds ${remittances.length} 835s; read one 835 per file`);
  }
  return remittances[0]!;
}
