// The second pass on a claim the payer already took (DECISIONS "Claim lifecycle"): a correction (a replacement
// claim, frequency 7), a void (frequency 8), both naming the payer's claim control number in REF*F8, and the
// secondary claim that bills what the primary's 835 left to the secondary coverage on file. Each is a new claim,
// linked to the one it acts on, that goes through the scrubber and the clearinghouse like any claim (submitClaim):
// it is written only once it passed the scrubber, so a refusal leaves nothing behind. A claim the payer's front end
// rejected never gets here: it is fixed and resubmitted as an original (PATCH, then submit).
import type { Deps } from '../deps';
import { AppError } from '../errors';
import type { ClearinghouseTransport } from '../clearinghouse/clearinghouse-transport';
import { coverageOfRank, type ClaimRecord } from './assemble-professional-claim';
import { findClaimBodyIssues, type CorrectClaimBody, type SecondaryClaimBody, type VoidClaimBody } from './claim-body';
import { getBillingParties, getClinicClaim, normaliseDiagnoses, toLineRows, type ClinicClaim } from './claim-records';
import { describeStatus, type ClaimStatus } from './claim-states';
import { newClaimId } from './create-claim';
import { hasActiveCheckOfCoverage } from './scrub-stored-claim';
import { loadPrimaryAdjudication } from './second-pass-facts';
import { assertKeyUnused, submitClaim, type ClaimSubmitted, type PreparedClaim } from './submit-claim';

type Actor = { clinicId: string; userId: string; orgId: string; correlationId: string };
type SendDeps = Pick<Deps, 'db' | 'clock'> & { clearinghouse: ClearinghouseTransport };

/** States a replacement or void may act on: the payer took the claim and gave it a claim control number. */
const REPLACEABLE: readonly ClaimStatus[] = ['accepted', 'paid', 'partially_paid', 'denied', 'appealed'];
/** States of a primary claim whose 835 may leave something for the secondary. */
const SECONDARY_AFTER: readonly ClaimStatus[] = ['paid', 'partially_paid', 'denied'];
/** A replacement, void or secondary in these states is still on its way: a second one would race it. */
const IN_FLIGHT = ['draft', 'sending', 'submitted'];

export const PURPOSES = { correct: 'claims.correct', void: 'claims.void', secondary: 'claims.secondary' } as const;

/**
 * Creates and submits a replacement of the claim with the body's fields (frequency 7, REF*F8).
 * @throws NOT_FOUND (404) for a claim not in the clinic; NOT_EXECUTABLE (409) for a draft or rejected claim (fix and
 *   submit it as an original), a claim not yet or no longer with the payer, or one with a replacement or void in
 *   flight; UNPROCESSABLE (422) when the payer gave no claim control number, or when the claim is a secondary and the
 *   correction changes its services (isSameService); VALIDATION_FAILED (400) for pointers past the diagnoses; and
 *   whatever submit answers (SCRUB_BLOCKED, TRANSPORT_FAILED, ...). Nothing is written on any refusal.
 */
export async function correctClaim(
  deps: SendDeps,
  input: CorrectClaimBody & Actor & { claimId: string },
): Promise<ClaimSubmitted> {
  const { db } = deps;
  await assertKeyUnused(deps, input.clinicId, PURPOSES.correct, input.idempotencyKey ?? null);
  const original = await getClinicClaim(db, input.clinicId, input.claimId);
  await assertReplaceable(deps, original, 'corrected');
  const diagnoses = input.diagnoses ?? original.diagnoses;
  const lines = input.lines ? toLineRows(input.clinicId, '', input.lines) : original.lines;
  const serviceDate = input.serviceDate ?? original.serviceDate;
  if (original.payerRank === 'secondary' && !isSameService(original, { serviceDate, lines }))
    throw new AppError(
      'UNPROCESSABLE',
      "A secondary claim's lines carry the primary payer's adjudication of them, so a correction cannot change its " +
        'services (procedure, modifiers, units, charge or date): correct the primary claim, then bill the secondary again',
    );
  const issues = findClaimBodyIssues({
    diagnoses,
    lines: lines.map((line) => ({ diagnosisPointers: line.diagnosisPointers, chargeCents: Number(line.chargeCents) })),
  });
  if (issues.length > 0)
    throw new AppError('VALIDATION_FAILED', 'The request body is not valid', {
      issues: issues.map((issue) => ({ ...issue, path: `body.${issue.path}` })),
    });
  const claim: ClaimRecord = {
    id: newClaimId(),
    serviceDate,
    placeOfService: input.placeOfService ?? original.placeOfService,
    diagnoses: input.diagnoses ? normaliseDiagnoses(input.diagnoses) : original.diagnoses,
    renderingNpi: input.renderingNpi !== undefined ? input.renderingNpi : original.renderingNpi,
    totalChargeCents: lines.reduce((sum, line) => sum + line.chargeCents, 0n),
    lines,
  };
  return submitClaim(deps, sendInput(input), {
    purpose: PURPOSES.correct,
    prepared: linked(original, claim, '7', { replaces: original.id }),
  });
}

/**
 * Creates and submits a void of the claim: its lines as sent, frequency 8, REF*F8.
 * @throws as correctClaim (less the body's 400).
 */
export async function voidClaim(
  deps: SendDeps,
  input: VoidClaimBody & Actor & { claimId: string },
): Promise<ClaimSubmitted> {
  await assertKeyUnused(deps, input.clinicId, PURPOSES.void, input.idempotencyKey ?? null);
  const original = await getClinicClaim(deps.db, input.clinicId, input.claimId);
  await assertReplaceable(deps, original, 'voided');
  return submitClaim(deps, sendInput(input), {
    purpose: PURPOSES.void,
    prepared: linked(original, copyOf(original), '8', { voids: original.id, reason: input.reason }),
  });
}

/**
 * Creates and submits the secondary claim of a primary claim whose 835 left a balance: the primary's lines, to the
 * secondary coverage on file, with the primary's adjudication (2320/2330/2430).
 * @throws NOT_FOUND (404) for a claim not in the clinic; NOT_EXECUTABLE (409) when the claim is not a primary that
 *   a primary 835 (CLP02 1 or 19) left paid with a balance, partially paid or denied, when the patient has no
 *   secondary coverage on file or no active check of it within 24 h, or when a secondary is already under way or
 *   accepted; then whatever submit answers. Nothing is written on any refusal.
 */
export async function billSecondary(
  deps: SendDeps,
  input: SecondaryClaimBody & Actor & { claimId: string },
): Promise<ClaimSubmitted> {
  const { db } = deps;
  const { clinicId } = input;
  await assertKeyUnused(deps, clinicId, PURPOSES.secondary, input.idempotencyKey ?? null);
  const primary = await getClinicClaim(db, clinicId, input.claimId);
  const refuse = (why: string) => new AppError('NOT_EXECUTABLE', `No secondary claim can be sent: ${why}`);
  if (primary.payerRank !== 'primary') throw refuse('this claim is itself a secondary claim');
  const status = primary.status as ClaimStatus;
  if (!SECONDARY_AFTER.includes(status))
    throw refuse(`the primary payer has not paid or denied this claim (it is ${describeStatus(status)})`);
  const adjudication = await loadPrimaryAdjudication(db, clinicId, primary.id, primary.lines);
  if (!adjudication) throw refuse("the primary payer's 835 (CLP02 1 or 19) for this claim is not on file");
  if (status === 'paid' && primaryBalanceCents(primary) <= 0n) throw refuse('the primary payer left no balance');
  const { patient } = await getBillingParties(db, clinicId, primary.patientId);
  if (!patient.secondaryPayerId || !patient.secondaryMemberId)
    throw refuse('the patient has no secondary coverage on file');
  const checked = await hasActiveCheckOfCoverage(db, {
    clinicId,
    patientId: primary.patientId,
    patient: coverageOfRank(patient, 'secondary'),
    now: deps.clock(),
  });
  if (!checked) throw refuse('the secondary coverage needs an active eligibility check from the last 24 hours');
  const existing = await db.claim.findFirst({
    where: { clinicId, primaryClaimId: primary.id, status: { notIn: ['rejected', 'closed'] } },
    select: { id: true },
  });
  if (existing) throw refuse(`claim ${existing.id} already bills the secondary payer`);
  return submitClaim(deps, sendInput(input), {
    purpose: PURPOSES.secondary,
    prepared: {
      ...copyOf(primary),
      patientId: primary.patientId,
      frequency: '1',
      replacesClaimId: null,
      payerRank: 'secondary',
      primaryClaimId: primary.id,
      event: { secondaryOf: primary.id },
    },
  });
}

/**
 * What the primary's adjudication left unpaid and not adjusted away by contract or denial: the patient's share the
 * secondary may take on (charge − paid − adjustments other than PR).
 */
export function primaryBalanceCents(claim: Pick<ClinicClaim, 'totalChargeCents' | 'paidCents' | 'adjustmentCents'>) {
  return claim.totalChargeCents - claim.paidCents - claim.adjustmentCents;
}

/** @throws NOT_EXECUTABLE (409) or UNPROCESSABLE (422) as DECISIONS "Claim lifecycle" rules for 7 and 8. */
async function assertReplaceable(deps: Pick<Deps, 'db'>, claim: ClinicClaim, what: string): Promise<void> {
  const status = claim.status as ClaimStatus;
  if (status === 'draft' || status === 'rejected')
    throw new AppError(
      'NOT_EXECUTABLE',
      `A ${describeStatus(status)} claim is not ${what}: the payer never took it; edit it and submit it as an original`,
    );
  if (!REPLACEABLE.includes(status))
    throw new AppError('NOT_EXECUTABLE', `A ${describeStatus(status)} claim cannot be ${what}`);
  if (!claim.payerClaimId)
    throw new AppError(
      'UNPROCESSABLE',
      `The payer has not given this claim a claim control number (277CA or 835), which a claim ${what} must name`,
    );
  const pending = await deps.db.claim.findFirst({
    where: { clinicId: claim.clinicId, replacesClaimId: claim.id, status: { in: IN_FLIGHT } },
    select: { id: true },
  });
  if (pending)
    throw new AppError('NOT_EXECUTABLE', `Claim ${pending.id} already replaces or voids this claim and is under way`);
}

type ServiceLines = Pick<ClinicClaim, 'serviceDate'> & {
  lines: Pick<ClinicClaim['lines'][number], 'procedureCode' | 'modifiers' | 'units' | 'chargeCents' | 'serviceDate'>[];
};

/**
 * Whether the two claims bill the same services, line for line: what a payer adjudicates (procedure, modifiers,
 * units, charge, date of service). A secondary's correction is sent with the primary's adjudication of the original
 * lines (second-pass-facts.ts), which must still be about these services; diagnoses and pointers may change.
 */
function isSameService(original: ServiceLines, corrected: ServiceLines): boolean {
  const service = (claim: ServiceLines) =>
    claim.lines.map((line) => [
      line.procedureCode,
      line.modifiers.join(':'),
      line.units,
      String(line.chargeCents),
      line.serviceDate ?? claim.serviceDate,
    ]);
  return JSON.stringify(service(original)) === JSON.stringify(service(corrected));
}

/** The claim's own fields under a new id: what a void or secondary sends again. */
function copyOf(claim: ClinicClaim): ClaimRecord {
  return {
    id: newClaimId(),
    serviceDate: claim.serviceDate,
    placeOfService: claim.placeOfService,
    diagnoses: claim.diagnoses,
    renderingNpi: claim.renderingNpi,
    totalChargeCents: claim.totalChargeCents,
    lines: claim.lines,
  };
}

/** A replacement or void of `original`: the same patient and payer rank (a secondary's correction stays one). */
function linked(
  original: ClinicClaim,
  claim: ClaimRecord,
  frequency: '7' | '8',
  event: PreparedClaim['event'],
): PreparedClaim {
  return {
    ...claim,
    patientId: original.patientId,
    frequency,
    replacesClaimId: original.id,
    payerRank: original.payerRank === 'secondary' ? 'secondary' : 'primary',
    primaryClaimId: original.primaryClaimId,
    event,
  };
}

function sendInput(input: Actor & { idempotencyKey?: string }) {
  return {
    clinicId: input.clinicId,
    userId: input.userId,
    orgId: input.orgId,
    correlationId: input.correlationId,
    ...(input.idempotencyKey !== undefined ? { idempotencyKey: input.idempotencyKey } : {}),
  };
}
