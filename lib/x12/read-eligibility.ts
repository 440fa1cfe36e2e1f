// Applies ELIGIBILITY.md to a 271: status, rejection and every result field, with the verbatim segments each
// value came from. Pure: the date of service is an argument. The loop structure is read-271.ts's job; the rows
// every rule reads are eligibility/benefit-row.ts's, and each family of fields has its reader in eligibility/.
import { readBenefitRow, type BenefitRow } from './eligibility/benefit-row';
import { findRejection, type Rejection } from './eligibility/find-rejection';
import { readAmounts } from './eligibility/read-amounts';
import { readCoinsurance } from './eligibility/read-coinsurance';
import { readCopays } from './eligibility/read-copays';
import { readCoverageDates } from './eligibility/read-coverage-dates';
import { readMemberAndPlan } from './eligibility/read-member-and-plan';
import { readNetwork, type Network } from './eligibility/read-network';
import { readPriorAuth } from './eligibility/read-prior-auth';
import { readStatus, type Status } from './eligibility/read-status';
import type { Sourced } from './eligibility/sourced';
import { read271, type Loop2000, type Response271 } from './read-271';

type Amounts = { individual: number | null; met: number | null; remaining: number | null }; // integer cents

export type EligibilityFindings = {
  status: Status;
  eligible: boolean;
  rejection: Rejection | null;
  memberId: string | null;
  memberName: string | null;
  planName: string | null;
  groupNumber: string | null;
  deductible: Amounts;
  outOfPocket: Amounts;
  copay: { specialist: number | null; primaryCare: number | null };
  coinsurance: number | null;
  coverageStart: string | null;
  coverageEnd: string | null;
  priorAuthRequired: boolean;
  priorAuthCodes: string[];
  network: Network;
  /** Field path ("deductible.met") to the verbatim segments its value came from; only fields that got a value. */
  evidence: Record<string, string[]>;
};

export type ReadEligibilityOptions = { /** YYYY-MM-DD */ dateOfService: string; serviceTypeCode: string };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads a 271 (its text, or what read271 made of it) and applies ELIGIBILITY.md. Throws X12ReadError when the
 * text is not a readable 271 (kind 'ta1' or '999' for an acknowledgment in its place) and RangeError when
 * dateOfService is not YYYY-MM-DD.
 */
export function readEligibility(x12: string | Response271, options: ReadEligibilityOptions): EligibilityFindings {
  if (!ISO_DATE.test(options.dateOfService)) throw new RangeError('dateOfService must be YYYY-MM-DD');
  const response = typeof x12 === 'string' ? read271(x12) : x12;
  const { subscriber, dependent } = findPatientLoops(response.loops);
  const patient = dependent ?? subscriber;
  // Plain loops rather than map/filter chains here and in the readers: this runs for every 271 on the verify
  // path, and fewer callbacks keep it cheap before V8 has optimised it as well as after (bench/x12-read).
  const rows: BenefitRow[] = [];
  const feeding: BenefitRow[] = [];
  const benefits = patient?.benefits ?? [];
  for (let index = 0; index < benefits.length; index++) {
    const row = readBenefitRow(benefits[index]!, index, options.serviceTypeCode);
    rows.push(row);
    if (row.isFeeding) feeding.push(row);
  }

  const rejection = findRejection(response.loops);
  const dates = readCoverageDates(patient, feeding);
  const status: Sourced<Status> = rejection.value
    ? { value: 'unknown', sources: [] }
    : readStatus(rows, options.dateOfService, dates.start.value, dates.end.value);
  const member = readMemberAndPlan(subscriber, dependent, feeding);
  const deductible = readAmounts(feeding, 'C');
  const outOfPocket = readAmounts(feeding, 'G');
  const copay = readCopays(feeding);
  const coinsurance = readCoinsurance(feeding);
  const priorAuth = readPriorAuth(rows, response.delimiters.component);
  const network = readNetwork(feeding);

  // The evidence record lists its fields in this order (stored results and API answers keep it). Each field is
  // written by name rather than through a closure taking the name: the closure and its store under a computed
  // key were 4-8 % of the read in profiles (bench x12-read).
  const evidence: Record<string, string[]> = {};
  if (rejection.sources.length > 0) evidence.rejection = rejection.sources;
  if (dates.start.sources.length > 0) evidence.coverageStart = dates.start.sources;
  if (dates.end.sources.length > 0) evidence.coverageEnd = dates.end.sources;
  if (status.sources.length > 0) evidence.status = status.sources;
  if (member.memberId.sources.length > 0) evidence.memberId = member.memberId.sources;
  if (member.memberName.sources.length > 0) evidence.memberName = member.memberName.sources;
  if (member.planName.sources.length > 0) evidence.planName = member.planName.sources;
  if (member.groupNumber.sources.length > 0) evidence.groupNumber = member.groupNumber.sources;
  if (deductible.individual.sources.length > 0) evidence['deductible.individual'] = deductible.individual.sources;
  if (deductible.remaining.sources.length > 0) evidence['deductible.remaining'] = deductible.remaining.sources;
  if (deductible.met.sources.length > 0) evidence['deductible.met'] = deductible.met.sources;
  if (outOfPocket.individual.sources.length > 0) evidence['outOfPocket.individual'] = outOfPocket.individual.sources;
  if (outOfPocket.remaining.sources.length > 0) evidence['outOfPocket.remaining'] = outOfPocket.remaining.sources;
  if (outOfPocket.met.sources.length > 0) evidence['outOfPocket.met'] = outOfPocket.met.sources;
  if (copay.specialist.sources.length > 0) evidence['copay.specialist'] = copay.specialist.sources;
  if (copay.primaryCare.sources.length > 0) evidence['copay.primaryCare'] = copay.primaryCare.sources;
  if (coinsurance.sources.length > 0) evidence.coinsurance = coinsurance.sources;
  if (priorAuth.required.sources.length > 0) evidence.priorAuthRequired = priorAuth.required.sources;
  if (priorAuth.codes.sources.length > 0) evidence.priorAuthCodes = priorAuth.codes.sources;
  if (network.sources.length > 0) evidence.network = network.sources;

  return {
    status: status.value,
    eligible: status.value === 'active',
    rejection: rejection.value,
    memberId: member.memberId.value,
    memberName: member.memberName.value,
    planName: member.planName.value,
    groupNumber: member.groupNumber.value,
    deductible: valuesOf(deductible),
    outOfPocket: valuesOf(outOfPocket),
    copay: { specialist: copay.specialist.value, primaryCare: copay.primaryCare.value },
    coinsurance: coinsurance.value,
    coverageStart: dates.start.value,
    coverageEnd: dates.end.value,
    priorAuthRequired: priorAuth.required.value,
    priorAuthCodes: priorAuth.codes.value,
    network: network.value,
    evidence,
  };
}

function valuesOf(amounts: { [K in keyof Amounts]: Sourced<Amounts[K]> }): Amounts {
  return { individual: amounts.individual.value, met: amounts.met.value, remaining: amounts.remaining.value };
}

/** The first 2000C in the file is the subscriber; the patient is its dependent when a 2000D follows it. */
function findPatientLoops(loops: readonly Loop2000[]): { subscriber: Loop2000 | null; dependent: Loop2000 | null } {
  let subscriber: Loop2000 | null = null;
  for (const loop of loops) {
    if (loop.level === 'C') {
      if (subscriber) break;
      subscriber = loop;
    } else if (loop.level === 'D' && subscriber) {
      return { subscriber, dependent: loop };
    }
  }
  return { subscriber, dependent: null };
}
