// Reads a 005010X231A1 999 implementation acknowledgment: the group it acknowledges (AK1), each transaction set's
// status with its IK3/IK4 errors, and the group's status (AK9). Envelope rules are read-interchange.ts's.
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

/**
 * Throws X12ReadError('unreadable') when the text is not an interchange holding one 999 with an AK1 and an AK9,
 * or a status is not one of the TR3's codes.
 */
export function read999(x12: string): Ack999 {
  void x12;
  throw new X12ReadError('unreadable', 'not implemented');
}
