// Writes a 005010X231A1 999 implementation acknowledgment for one received functional group, segment for segment
// as the TR3's examples write it: AK1 names the group, one AK2..IK5 per transaction set (with IK3/IK4 for each
// error), AK9 sums them up. It does not decide what is wrong with a document (the sandbox clearinghouse does)
// and does not choose control numbers or the time.
import { buildInterchange, type ElementValue, type InterchangeEnvelope } from './build-interchange';

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
  /** CTX*CLM01:{claimId}: the claim the error is in (TR3: required when the error is inside a claim, loop 2300). */
  claimId?: string;
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
  /** IK502: defaults to I5 (implementation: one or more segments in error) for E and 5 (one or more segments in error) for R. */
  syntaxErrorCode?: string;
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
 * AK901 follows the sets: A when all are A, E when none is rejected and any has errors, P when some but not all
 * were rejected, R when every one was. AK902 is the received group's GE01, AK903 the sets acknowledged, AK904
 * those accepted (A or E). Throws RangeError for a value holding a delimiter, no sets, an A set with errors, an E
 * set without errors, or a position that is not a positive integer.
 */
export function build999(input: Ack999Input): string {
  const { received, sets } = input;
  if (sets.length === 0) throw new RangeError('sets must hold at least one transaction set');
  const body: ElementValue[][] = [
    ['AK1', received.functionalId, received.groupControlNumber, received.implementationReference],
  ];
  let accepted = 0;
  let rejected = 0;
  let withErrors = 0;
  sets.forEach((set, i) => {
    const errors = set.errors ?? [];
    if (set.status === 'A' && errors.length > 0) throw new RangeError(`sets[${i}] is accepted (A) but lists errors`);
    if (set.status === 'E' && errors.length === 0) throw new RangeError(`sets[${i}] is E but lists no errors`);
    if (set.status === 'R') rejected++;
    else accepted++;
    if (set.status === 'E') withErrors++;
    // AK203 is sent when the acknowledged set had an ST03, which every 005010 health care set has.
    body.push(['AK2', set.transactionSetId, set.controlNumber, set.implementationReference ?? '']);
    errors.forEach((error, j) => body.push(...errorSegments(error, `sets[${i}].errors[${j}]`)));
    const syntaxErrorCode = set.syntaxErrorCode ?? (set.status === 'E' ? 'I5' : '5');
    body.push(set.status === 'A' ? ['IK5', 'A'] : ['IK5', set.status, syntaxErrorCode]);
  });
  const groupStatus = rejected === sets.length ? 'R' : rejected > 0 ? 'P' : withErrors > 0 ? 'E' : 'A';
  const included = received.transactionSetCount ?? sets.length;
  body.push(['AK9', groupStatus, String(included), String(sets.length), String(accepted)]);
  return buildInterchange(
    input,
    { functionalId: 'FA', transactionSetId: '999', implementationReference: '005010X231A1' },
    body,
  );
}

/** IK3, its CTX (the claim), then the IK4 when an element is named: the order of the TR3's loops 2100 and 2110. */
function errorSegments(error: Ack999ErrorInput, field: string): ElementValue[][] {
  if (!isPositiveInteger(error.position)) throw new RangeError(`${field}.position must be a positive integer`);
  const segments: ElementValue[][] = [['IK3', error.segmentId, String(error.position), error.loopId ?? '', error.code]];
  if (error.claimId !== undefined) segments.push(['CTX', ['CLM01', error.claimId]]);
  const element = error.element;
  if (element) {
    if (!isPositiveInteger(element.position))
      throw new RangeError(`${field}.element.position must be a positive integer`);
    const component = element.componentPosition;
    if (component !== undefined && !isPositiveInteger(component))
      throw new RangeError(`${field}.element.componentPosition must be a positive integer`);
    segments.push([
      'IK4',
      [String(element.position), component === undefined ? '' : String(component)],
      element.referenceNumber ?? '',
      element.code,
      element.badValue ?? '',
    ]);
  }
  return segments;
}

function isPositiveInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}
