// Reads a 005010X231A1 999 implementation acknowledgment: the group it acknowledges (AK1), each transaction set's
// status with its IK3/IK4 errors, and the group's status (AK9). Envelope rules are read-interchange.ts's.
import { element } from './element';
import { readInterchange, type Segment } from './read-interchange';
import { X12ReadError } from './x12-read-error';

/** AK901: A accepted, E accepted with errors, P partially accepted, R rejected, M/W/X rejected (security). */
export type Ack999GroupStatus = 'A' | 'E' | 'P' | 'R' | 'M' | 'W' | 'X';
/** IK501: A accepted, E accepted with errors, R rejected, M/W/X rejected (security). */
export type Ack999TransactionStatus = 'A' | 'E' | 'R' | 'M' | 'W' | 'X';

/** One IK3 with its first IK4, if any. */
export type Ack999Error = {
  /** IK301. */
  segmentId: string;
  /** IK302, ST being 1. */
  position: number;
  /** IK304. */
  code: string;
  /** IK401-1 of the IK4 that follows, when one does. */
  elementPosition?: number;
  /** IK403 of that IK4. */
  elementCode?: string;
};

export type Ack999Set = {
  /** AK201, e.g. "837". */
  transactionSetId: string;
  /** AK202: the acknowledged ST02. */
  controlNumber: string;
  /** IK501. */
  status: Ack999TransactionStatus;
  errors: Ack999Error[];
};

export type Ack999 = {
  /** ISA13 of the 999 itself, what the claim's transmission history keeps as its control number. */
  interchangeControlNumber: string;
  /** AK101: the acknowledged group's functional id, e.g. "HC". */
  functionalId: string;
  /** AK102: the acknowledged group's GS06. */
  groupControlNumber: string;
  /** AK901. */
  groupStatus: Ack999GroupStatus;
  sets: Ack999Set[];
};

const GROUP_STATUSES: ReadonlySet<string> = new Set(['A', 'E', 'P', 'R', 'M', 'W', 'X']);
const SET_STATUSES: ReadonlySet<string> = new Set(['A', 'E', 'R', 'M', 'W', 'X']);

const fail = (reason: string): never => {
  throw new X12ReadError('unreadable', reason);
};

/**
 * Throws X12ReadError: 'ta1' when the interchange was rejected with a TA1 and holds no 999; 'unreadable' when the
 * text is not an interchange holding exactly one 999 with an AK1 and an AK9 in the TR3's order, a status is not one
 * of the TR3's codes, an AK2 has no IK5, or an IK3/IK4 position is not a positive integer. Linear in the text.
 */
export function read999(x12: string): Ack999 {
  const interchange = readInterchange(x12);
  const transactions = interchange.groups.flatMap((group) => group.transactions);
  if (transactions.length === 0 && interchange.ta1.length > 0) {
    throw new X12ReadError('ta1', `interchange rejected with a TA1 (TA104 ${element(interchange.ta1[0], 4)})`);
  }
  if (transactions.length !== 1) fail(`expected one 999 transaction set, found ${transactions.length}`);
  const transaction = transactions[0]!;
  if (transaction.id !== '999') fail(`transaction set ${JSON.stringify(transaction.id)} is not a 999`);
  const segments = transaction.segments;
  const ak1 = segments[1];
  if (ak1?.id !== 'AK1') fail('the 999 has no AK1 after its ST');
  const sets: Ack999Set[] = [];
  let set: Ack999Set | null = null;
  let isSetClosed = true;
  let lastIk3: Segment | null = null;
  let ik4Count = 0;
  let ak9: Segment | null = null;
  // ST, AK1 ... AK9, SE: everything between AK1 and SE is read in order.
  for (let i = 2; i < segments.length - 1; i++) {
    const segment = segments[i]!;
    if (ak9) fail(`segment ${segment.id} after AK9`);
    switch (segment.id) {
      case 'AK2':
        if (!isSetClosed) fail('AK2 without an IK5 before the next AK2');
        set = { transactionSetId: element(segment, 1), controlNumber: element(segment, 2), status: 'A', errors: [] };
        if (set.transactionSetId === '' || set.controlNumber === '') fail('AK201 or AK202 is missing');
        isSetClosed = false;
        lastIk3 = null;
        break;
      case 'IK3':
        if (!set || isSetClosed) fail('IK3 outside an AK2 loop');
        lastIk3 = segment;
        ik4Count = 0;
        set!.errors.push({
          segmentId: element(segment, 1),
          position: readPosition(element(segment, 2), 'IK302'),
          code: element(segment, 4),
        });
        break;
      case 'IK4': {
        if (!lastIk3 || isSetClosed) fail('IK4 without an IK3');
        const position = readPosition(element(segment, 1).split(interchange.delimiters.component)[0] ?? '', 'IK401');
        const code = element(segment, 3);
        const errors = set!.errors;
        // The first IK4 completes its IK3's error; each further IK4 of the same IK3 is one more error.
        const target = ik4Count === 0 ? errors[errors.length - 1]! : { ...errors[errors.length - 1]! };
        target.elementPosition = position;
        target.elementCode = code;
        if (ik4Count > 0) errors.push(target);
        ik4Count++;
        break;
      }
      case 'CTX':
        if (!lastIk3 || isSetClosed) fail('CTX without an IK3');
        break;
      case 'IK5': {
        if (!set || isSetClosed) fail('IK5 without an AK2');
        const status = element(segment, 1);
        if (!SET_STATUSES.has(status)) fail(`IK501 ${JSON.stringify(status.slice(0, 10))} is not a 999 status`);
        set!.status = status as Ack999TransactionStatus;
        sets.push(set!);
        isSetClosed = true;
        lastIk3 = null;
        break;
      }
      case 'AK9':
        if (!isSetClosed) fail('AK9 before the IK5 of the last AK2');
        ak9 = segment;
        break;
      default:
        fail(`segment ${segment.id} is not part of a 999`);
    }
  }
  if (!ak9) fail('the 999 has no AK9');
  const groupStatus = element(ak9, 1);
  if (!GROUP_STATUSES.has(groupStatus)) fail(`AK901 ${JSON.stringify(groupStatus.slice(0, 10))} is not a 999 status`);
  return {
    interchangeControlNumber: interchange.controlNumber,
    functionalId: element(ak1, 1),
    groupControlNumber: element(ak1, 2),
    groupStatus: groupStatus as Ack999GroupStatus,
    sets,
  };
}

/** A segment or element position: 1 to 6 digits, not zero. */
function readPosition(value: string, name: string): number {
  if (!/^\d{1,6}$/.test(value) || Number(value) === 0) fail(`${name} is not a position`);
  return Number(value);
}
