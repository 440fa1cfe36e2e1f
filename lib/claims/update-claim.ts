// PATCH /api/claims/{id}: edit a draft, field by field. A claim the payer's front end rejected (277CA) is edited
// the same way: the edit reopens it as a draft (rejected → draft in the state table) so it can be fixed and sent
// again. Any other state is 409: what went to the payer is not rewritten.
// The total follows the lines unless a totalCharge is given: new lines without a totalCharge make the total their
// sum, and `totalCharge: null` sets it back to the sum.
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { parseDollarsToCents } from '../money/dollars';
import { findClaimBodyIssues, type PatchClaimBody } from './claim-body';
import { getClinicClaim, normaliseDiagnoses, sumOfLines, toLineRows } from './claim-records';
import { describeStatus, recordClaimEvent, transitionClaim, type ClaimStatus } from './claim-states';
import { CLAIM_LINES, toClaimViewOf, type ClaimView } from './claim-view';

/** @throws NOT_FOUND (404) for a claim not in the clinic; NOT_EXECUTABLE (409) unless it is a draft or rejected. */
export async function updateClaim(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { body: PatchClaimBody; claimId: string; clinicId: string; userId: string; correlationId: string },
): Promise<ClaimView> {
  const { db } = deps;
  const now = deps.clock();
  const { body, claimId, clinicId, correlationId } = input;
  const claim = await getClinicClaim(db, clinicId, claimId);
  const refuse = (status: string) =>
    new AppError(
      'NOT_EXECUTABLE',
      `Only a draft claim can be edited; this one is ${describeStatus(status as ClaimStatus)}`,
    );
  if (claim.status !== 'draft' && claim.status !== 'rejected') throw refuse(claim.status);
  // The body rules hold for the draft as the edit leaves it: new lines against the stored diagnoses, fewer
  // diagnoses against the stored lines' pointers.
  const issues = findClaimBodyIssues({
    diagnoses: body.diagnoses ?? claim.diagnoses,
    lines:
      body.lines ??
      claim.lines.map((line) => ({ diagnosisPointers: line.diagnosisPointers, chargeCents: Number(line.chargeCents) })),
  });
  if (issues.length > 0)
    throw new AppError('VALIDATION_FAILED', 'The request body is not valid', {
      issues: issues.map((issue) => ({ ...issue, path: `body.${issue.path}` })),
    });

  const totalChargeCents =
    body.totalCharge !== undefined && body.totalCharge !== null
      ? parseDollarsToCents(body.totalCharge)
      : body.lines !== undefined || body.totalCharge === null
        ? body.lines !== undefined
          ? sumOfLines(body.lines)
          : claim.lines.reduce((sum, line) => sum + Number(line.chargeCents), 0)
        : undefined;

  const updated = await db.$transaction(async (tx) => {
    if (claim.status === 'rejected') {
      const reopened = await transitionClaim(tx, {
        clinicId,
        claimId,
        from: 'rejected',
        to: 'draft',
        kind: 'reopened',
        detail: { by: input.userId },
        correlationId,
        at: now,
      });
      if (!reopened) throw refuse('submitted');
    }
    // Conditional on the draft state: an edit racing a submit either lands before it or not at all.
    const { count } = await tx.claim.updateMany({
      where: { id: claimId, clinicId, status: 'draft' },
      data: {
        ...(body.serviceDate !== undefined && { serviceDate: body.serviceDate }),
        ...(body.placeOfService !== undefined && { placeOfService: body.placeOfService }),
        ...(body.diagnoses !== undefined && { diagnoses: normaliseDiagnoses(body.diagnoses) }),
        ...(body.renderingNpi !== undefined && { renderingNpi: body.renderingNpi }),
        ...(totalChargeCents !== undefined && { totalChargeCents: BigInt(totalChargeCents) }),
      },
    });
    if (count === 0) {
      const now = await tx.claim.findUniqueOrThrow({ where: { id: claimId }, select: { status: true } });
      throw refuse(now.status);
    }
    if (body.lines !== undefined) {
      await tx.claimLine.deleteMany({ where: { claimId } });
      await tx.claimLine.createMany({ data: toLineRows(clinicId, claimId, body.lines) });
    }
    await recordClaimEvent(tx, {
      clinicId,
      claimId,
      kind: 'edited',
      detail: { by: input.userId, fields: Object.keys(body).sort() },
      correlationId,
      at: now,
    });
    return tx.claim.findUniqueOrThrow({ where: { id: claimId }, include: CLAIM_LINES });
  });
  return toClaimViewOf(db, clinicId, updated);
}
