// Writes a 005010X231A1 999 implementation acknowledgment for one received functional group, segment for segment
// as the TR3's examples write it: AK1 names the group, one AK2..IK5 per transaction set (with IK3/IK4 for each
// error), AK9 sums them up. It does not decide what is wrong with a document (the sandbox clearinghouse does)
// and does not choose control numbers or the time.
import { type InterchangeEnvelope } from './build-interchange';

/** IK501: A accepted, E accepted but errors were noted, R rejected. */
export type Ack999SetStatus = 'A' | 'E' | 'R';

/** One IK3 (segment error), with an IK4 when an element is named. */
export type Ack999ErrorInput = {
  /** IK301: the segment id in error, e.g. "NM1". */
  segmentId: string;
  /** IK302: the segment's position in the transaction set, ST being 1. */
  position: number;
  /** IK303: the loop id, e.g. "2010BA", when known. */
  loopId?: string;
  /** IK304: implementation segment syntax error code (e.g. 8 "segment has data element errors", I4 ...). */
  code: string;
  /** IK4, when one element is in error. */
  element?: {
    /** IK401-1: the element's position in the segment. */
    position: number;
    /** IK401-2: the component's position, for a composite. */
    componentPosition?: number;
    /** IK402: the data element reference number, when known. */
    referenceNumber?: string;
    /** IK403: implementation data element syntax error code (e.g. 1 required missing, 7 invalid code value). */
    code: string;
    /** IK404: a copy of the bad value, when there is one. */
    badValue?: string;
  };
};

export type Ack999SetInput = {
  /** AK201, e.g. "837". */
  transactionSetId: string;
  /** AK202: the received ST02. */
  controlNumber: string;
  /** AK203: the received ST03, e.g. "005010X222A1". */
  implementationReference?: string;
  status: Ack999SetStatus;
  /** IK3/IK4 per error: at least one for E and R. */
  errors?: Ack999ErrorInput[];
};

/**
 * The envelope (our ISA/GS, functional id FA) plus what was received: the group's GS01, GS06 and GS08 (AK1), and
 * per transaction set its status. `senderId`/`receiverId` are the acknowledgment's: the received ones swapped.
 */
export type Ack999Input = InterchangeEnvelope & {
  received: {
    /** GS01 of the received group, e.g. "HC". */
    functionalId: string;
    /** GS06 of the received group. */
    groupControlNumber: string;
    /** GS08 of the received group, e.g. "005010X222A1". */
    implementationReference: string;
    /** GE01 of the received group: how many sets it held (AK902). Defaults to sets.length. */
    transactionSetCount?: number;
  };
  sets: Ack999SetInput[];
};

/**
 * AK901 follows the sets: A when all are A, E when all were accepted and any has errors, P when some but not all
 * were rejected, R when every one was. Throws RangeError for a value holding a delimiter, an E or R set without
 * errors, an A set with errors, or no sets.
 */
export function build999(input: Ack999Input): string {
  void input;
  throw new Error('not implemented');
}
