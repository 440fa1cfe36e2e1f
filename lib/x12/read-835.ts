// Reads an interchange of 835 remittances (005010X221A1) into balanced remittance objects: the envelope rules
// are the 271 reader's (read-interchange.ts), each transaction set is read by read-remittance.ts, segment by segment
// as the text is walked, and must pass the TR3's three balancing rules. Posting what a remittance says is not this
// module's business.
import { remittanceBalance } from './assert-remittance-balanced';
import { assertNoControlCharacters } from './control-characters';
import {
  checkInterchangeEnvelope,
  walkInterchange,
  type Delimiters,
  type Interchange,
  type Segment,
} from './read-interchange';
import { remittanceReader, type ClaimPayment, type Remittance, type RemittanceHeader } from './read-remittance';
import type { X12Text } from './x12-text';
import { X12ReadError } from './x12-read-error';

/**
 * The largest 835 interchange read: 64 MiB, a large group's weekly Medicare file (tens of thousands of claims).
 * Every amount is capped at MAX_AMOUNT_CENTS and every sum the balancing rules take is checked to stay a safe
 * integer (assert-remittance-balanced.ts), so the cap is about memory, not arithmetic.
 */
export const MAX_835_LENGTH = 64 * 1024 * 1024;

/** One 835 as the first reading of a large file keeps it: no claim, but where to read them again from. */
export type Scanned835 = RemittanceHeader & {
  /** CLPs in the 835. */
  claimCount: number;
  /** The claim ids its CLPs name, each once, in the order first named. */
  claimIds: string[];
  /** Where its ST starts in the text, and the interchange's delimiters: claimsOf reads its claims again. */
  start: number;
  delimiters: Delimiters;
};

type Read835 = RemittanceHeader & Pick<Scanned835, 'claimCount' | 'start' | 'delimiters'>;

/**
 * Reads and checks the whole interchange, handing each claim on as it closes instead of holding it: all or nothing,
 * it throws X12ReadError ('ta1' or '999' for an acknowledgment instead of an 835, 'unreadable' otherwise) when the
 * text is not an interchange of 835s only, or when any 835 has no claim (CLP), has a negative BPR02 or does not
 * balance; X12ControlCharacterError (an X12ReadError) when the text holds a control character
 * (control-characters.ts).
 *
 * One walk: the envelope check keeps no 835 segment (the interchange's segments, held all at once, are several
 * times a 64 MiB text) and shows each one to the 835s' reader as it goes. What that reader finds wrong is kept and
 * thrown only after the envelope and the kinds of set have passed, so a file is refused first for its envelope,
 * then for holding something other than 835s, then for its first 835 in file order that cannot be read, is empty or
 * does not balance: the order two separate walks gave, at the cost of one (bench era-read).
 */
function readEach835(
  text: X12Text,
  maxLength: number,
  onClaim: (claim: ClaimPayment, index: number) => void,
): Read835[] {
  assertNoControlCharacters(text);
  const read: Read835[] = [];
  const at = { start: 0 };
  let reader: ReturnType<typeof remittanceReader> | null = null;
  let balance = remittanceBalance();
  // The first claim that fails a balancing rule, thrown at the SE: an 835 is refused first for what cannot be read
  // (anywhere in it, its BPR included), then for being empty, then for the first rule it breaks, in file order.
  let unbalanced: unknown = null;
  let claimCount = 0;
  let controlNumber = '';
  let start = 0;
  // The first 835 refused, in file order; reading stops there (the walk goes on for the envelope).
  let refusal: unknown = null;
  const read835Segment = (segment: Segment, delimiters: Delimiters) => {
    if (segment.id === 'ST') {
      if (segment.elements[1] !== '835') return; // the envelope keeps it; refused below
      const index = read.length;
      balance = remittanceBalance();
      unbalanced = null;
      claimCount = 0;
      reader = remittanceReader(delimiters, (claim) => {
        claimCount++;
        try {
          if (unbalanced === null) balance.claim(claim);
        } catch (error) {
          unbalanced = error;
        }
        onClaim(claim, index);
      });
      controlNumber = segment.elements[2] ?? '';
      start = at.start;
    } else if (segment.id === 'SE' && reader) {
      const header = reader.finish();
      reader = null;
      if (claimCount === 0) {
        throw new X12ReadError(
          'unreadable',
          `835 ${JSON.stringify(controlNumber)} is empty: it has no claim payment (CLP)`,
        );
      }
      if (unbalanced !== null) throw unbalanced;
      balance.finish(header);
      read.push({ ...header, claimCount, start, delimiters });
    } else {
      reader?.take(segment);
    }
  };
  const interchange = checkInterchangeEnvelope(text, maxLength, (id) => id !== '835', {
    at,
    onSegment(segment, delimiters) {
      if (refusal !== null) return;
      try {
        read835Segment(segment, delimiters);
      } catch (error) {
        refusal = error;
      }
    },
  });
  refuseOtherThan835s(interchange);
  if (refusal !== null) throw refusal;
  return read;
}

/**
 * Every 835 of the interchange, in file order, claims and all: what the command line, the clearinghouse retrieval
 * and the tests read. Throws as readEach835 does.
 */
export function read835s(text: X12Text, maxLength: number = MAX_835_LENGTH): Remittance[] {
  const claims: ClaimPayment[][] = [];
  const headers = readEach835(text, maxLength, (claim, index) => (claims[index] ??= []).push(claim));
  return headers.map(({ claimCount: _count, start: _start, delimiters: _delimiters, ...header }, index) => ({
    ...header,
    claims: claims[index]!,
  }));
}

/**
 * Every 835 of the interchange checked as read835s checks it, keeping of each only its header, claim count and
 * claim ids: what posting a large file starts from, its claims read again a chunk at a time (claimsOf).
 */
export function scan835s(text: X12Text, maxLength: number = MAX_835_LENGTH): Scanned835[] {
  const ids: Set<string>[] = [];
  const headers = readEach835(text, maxLength, (claim, index) => (ids[index] ??= new Set()).add(claim.claimId));
  return headers.map((header, index) => ({ ...header, claimIds: [...ids[index]!] }));
}

/**
 * The claims of one 835 scan835s read, again, in file order, one at a time. `onSegment` is shown each of the
 * 835's segments (ST to SE) as it is read, before the claim it closes is handed out, for a caller that reads more
 * of the 835 than the claim object holds (its remark codes, its text). The text must be the one scanned.
 */
export function* claimsOf(
  text: X12Text,
  scanned: Pick<Scanned835, 'start' | 'delimiters'>,
  onSegment?: (segment: Segment) => void,
): Generator<ClaimPayment> {
  const closed: ClaimPayment[] = [];
  const reader = remittanceReader(scanned.delimiters, (claim) => closed.push(claim));
  for (const segment of walkInterchange(text, MAX_835_LENGTH, { from: scanned.start })) {
    onSegment?.(segment);
    if (segment.id === 'SE') reader.finish();
    else if (segment.id !== 'ST') reader.take(segment);
    yield* closed;
    closed.length = 0;
    if (segment.id === 'SE') return;
  }
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

/** The one 835 of an interchange, as the command line reads a file: an interchange holding several is refused. */
export function read835(text: string): Remittance {
  const remittances = read835s(text);
  if (remittances.length > 1) {
    throw new X12ReadError('unreadable', `the interchange holds ${remittances.length} 835s; read one 835 per file`);
  }
  return remittances[0]!;
}
