// Who the answer is about and under which plan: member id and name from the NM1s, plan name and group number
// from an active plan row or the REFs of 2100C/D.
import type { BenefitRow } from './benefit-row';
import { element } from '../element';
import type { Loop2000 } from '../read-271';
import type { Segment } from '../read-interchange';
import type { Sourced } from './sourced';

// REF01 qualifier and the element holding the value, in preference order.
type RefSource = readonly [qualifier: string, position: number];
const PLAN_NAME_REFS: readonly RefSource[] = [
  ['18', 3],
  ['6P', 3],
];
const GROUP_NUMBER_REFS: readonly RefSource[] = [
  ['6P', 2],
  ['1L', 2],
];

type Found = Sourced<string | null>;

type MemberAndPlan = {
  memberId: Found;
  memberName: Found;
  planName: Found;
  groupNumber: Found;
};

/**
 * The member id is always the subscriber's (2100C NM109), the name the patient's. REF lookups use the patient's
 * 2100 loop, then 2100C for a dependent; never a 2110 REF.
 */
export function readMemberAndPlan(
  subscriber: Loop2000 | null,
  dependent: Loop2000 | null,
  feeding: readonly BenefitRow[],
): MemberAndPlan {
  const patient = dependent ?? subscriber;
  const refLoops = dependent && subscriber ? [dependent.loop2100, subscriber.loop2100] : [patient?.loop2100 ?? []];
  return {
    memberId: fromSegment(subscriber?.nm1 ?? null, element(subscriber?.nm1, 9)),
    memberName: fromSegment(patient?.nm1 ?? null, readName(patient?.nm1 ?? null)),
    planName: readPlanName(feeding, refLoops),
    groupNumber: findRef(refLoops, GROUP_NUMBER_REFS),
  };
}

/** `value` ('' for none) with `source` behind it. */
function fromSegment(source: Segment | null, value: string): Found {
  return value !== '' && source ? { value, sources: [source.raw] } : { value: null, sources: [] };
}

/** NM103 last name and NM104 first name as "FIRST LAST", or whichever of the two is there. */
function readName(nm1: Segment | null): string {
  const last = element(nm1, 3);
  const first = element(nm1, 4);
  return first === '' ? last : last === '' ? first : `${first} ${last}`;
}

/** EB05 of the first active plan row (EB03 30) that has one, else a plan-name REF. */
function readPlanName(feeding: readonly BenefitRow[], refLoops: readonly (readonly Segment[])[]): Found {
  for (const row of feeding) {
    const planName = element(row.eb, 5);
    if (row.isActive && row.hasPlanType && planName !== '') return { value: planName, sources: [row.eb.raw] };
  }
  return findRef(refLoops, PLAN_NAME_REFS);
}

function findRef(loops: readonly (readonly Segment[])[], sources: readonly RefSource[]): Found {
  for (const [qualifier, position] of sources) {
    for (const loop of loops) {
      for (const ref of loop) {
        if (ref.id === 'REF' && element(ref, 1) === qualifier && element(ref, position) !== '') {
          return { value: element(ref, position), sources: [ref.raw] };
        }
      }
    }
  }
  return { value: null, sources: [] };
}
