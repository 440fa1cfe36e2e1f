// Claim submission: send an existing draft claim, or create one inline from a charge in dollars (the one
// place dollars enter: converted exactly to totalChargeCents). The patient must be in the caller's clinic and
// have an active eligibility check of their coverage on file from the last 24 hours. An idempotency key is
// single-use per clinic: the key row is inserted in the claim's transaction under a unique constraint, so of
// any number of concurrent requests with one key exactly one creates anything and the rest get 409.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { parseDollarsToCents } from '../money/dollars';
import { MAX_AMOUNT_CENTS } from '../money/cents';
import { recordAudit } from '../audit/record-audit';
import { compareCoverage } from '../eligibility/coverage-on-file';
import { ClaimView, toClaimView } from './claim-view';
import { requireClinicPatients } from '../patients/require-clinic-patients';
import { isUniqueViolation } from '../db/is-unique-violation';

const Id = z.string().trim().min(1).max(200);

export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, 'idempotencyKey must be 1-200 printable ASCII characters');

export const SubmitClaimBody = z
  .object({
    claimId: Id.optional(),
    patientId: Id.optional(),
    /** Dollars, as a JSON number (125.5) or the same text as a string ("125.50"); at most two decimals. */
    totalCharge: z.union([z.number(), z.string()]).optional(),
    serviceDate: z.iso.date({ message: 'serviceDate must be YYYY-MM-DD' }).optional(),
    idempotencyKey: IdempotencyKey.optional(),
  })
  .superRefine((body, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (body.claimId !== undefined) {
      for (const field of ['patientId', 'totalCharge', 'serviceDate'] as const) {
        if (body[field] !== undefined) issue(field, `${field} is not accepted together with claimId`);
      }
      return;
    }
    if (body.patientId === undefined) issue('patientId', 'patientId is required to create a claim (or send claimId)');
    if (body.serviceDate === undefined) issue('serviceDate', 'serviceDate is required to create a claim');
    if (body.totalCharge === undefined) return issue('totalCharge', 'totalCharge is required to create a claim');
    const cents = dollarsToCents(body.totalCharge);
    if (cents === undefined)
      issue('totalCharge', 'totalCharge must be a non-negative dollar amount with at most 2 decimal places');
    else if (cents === 0) issue('totalCharge', 'totalCharge must be more than zero');
    else if (cents > MAX_AMOUNT_CENTS) issue('totalCharge', 'totalCharge must be at most 1000000000.00 dollars');
  });
export type SubmitClaimBody = z.infer<typeof SubmitClaimBody>;

export const ClaimSubmitted = ClaimView.extend({ correlationId: z.string() });

const ELIGIBILITY_WINDOW_MS = 24 * 60 * 60 * 1000;
const IDEMPOTENCY_PURPOSE = 'claims.submit';
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 15_000 };

function dollarsToCents(value: number | string): number | undefined {
  try {
    return parseDollarsToCents(value);
  } catch {
    return undefined;
  }
}

/**
 * The patient's coverage must have been verified: an active check from the last 24 h whose member id and payer
 * equal the coverage on file NOW (DECISIONS "Verify is tied to the patient"). A check of another member id,
 * or one made before the coverage on file changed, does not count.
 * @throws UNPROCESSABLE (422) without such a check (or without coverage on file).
 */
async function requireRecentEligibility(
  deps: Pick<Deps, 'db' | 'clock'>,
  clinicId: string,
  patientId: string,
): Promise<void> {
  const since = new Date(deps.clock().getTime() - ELIGIBILITY_WINDOW_MS);
  const [patient, checks] = await Promise.all([
    deps.db.patient.findFirst({
      where: { id: patientId, clinicId },
      select: { coverageMemberId: true, coveragePayerId: true },
    }),
    // Distinct pairs: a day of re-checks of one patient is a handful of rows, compared in code with the one
    // canonical form (SQL's upper() and ILIKE would each compare differently).
    deps.db.eligibilityCheck.findMany({
      where: {
        clinicId,
        patientId,
        status: 'active',
        eligible: true,
        createdAt: { gte: since },
        memberId: { not: null },
      },
      distinct: ['memberId', 'payerId'],
      select: { memberId: true, payerId: true },
    }),
  ]);
  const coverage = patient && { memberId: patient.coverageMemberId, payerId: patient.coveragePayerId };
  const verified = checks.some(
    (check) => compareCoverage({ memberId: check.memberId!, payerId: check.payerId }, coverage) === 'match',
  );
  if (!verified) {
    throw new AppError(
      'UNPROCESSABLE',
      "An active eligibility check of the patient's coverage on file within the last 24 hours is required before a claim is submitted",
    );
  }
}

/**
 * @throws NOT_FOUND (404) for a claimId not in the clinic; UNPROCESSABLE (422) for a claim already submitted
 *   or without recent active eligibility; OUT_OF_SCOPE (403) for a patient outside the clinic;
 *   IDEMPOTENCY_KEY_REUSED (409) for a key used before (nothing is created or changed).
 */
export async function submitClaim(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: SubmitClaimBody & { clinicId: string; userId: string; orgId: string; correlationId: string },
): Promise<z.infer<typeof ClaimSubmitted>> {
  const { db } = deps;
  const { clinicId, idempotencyKey = null, correlationId } = input;
  const now = deps.clock();

  let claimId: string;
  let patientId: string;
  if (input.claimId !== undefined) {
    const claim = await db.claim.findFirst({
      where: { id: input.claimId, clinicId },
      select: { id: true, patientId: true, status: true },
    });
    if (!claim) throw new AppError('NOT_FOUND', 'No such claim');
    if (claim.status !== 'draft')
      throw new AppError('UNPROCESSABLE', 'Only a draft claim can be submitted; this one already was');
    claimId = claim.id;
    patientId = claim.patientId;
  } else {
    claimId = `clm_${randomUUID().replaceAll('-', '')}`;
    patientId = input.patientId!;
    await requireClinicPatients(db, clinicId, [patientId]);
  }
  await requireRecentEligibility(deps, clinicId, patientId);

  try {
    const claim = await db.$transaction(async (tx) => {
      if (idempotencyKey !== null) {
        await tx.idempotencyKey.create({
          data: { clinicId, purpose: IDEMPOTENCY_PURPOSE, key: idempotencyKey, resourceId: claimId },
        });
      }
      if (input.claimId !== undefined) {
        // Conditional: of two racing submits of one draft, one moves it and the other finds nothing to move.
        const { count } = await tx.claim.updateMany({
          where: { id: claimId, clinicId, status: 'draft' },
          data: {
            status: 'submitted',
            submittedAt: now,
            correlationId,
            ...(idempotencyKey !== null ? { idempotencyKey } : {}),
          },
        });
        if (count === 0)
          throw new AppError('UNPROCESSABLE', 'Only a draft claim can be submitted; this one already was');
      } else {
        await tx.claim.create({
          data: {
            id: claimId,
            clinicId,
            patientId,
            totalChargeCents: BigInt(parseDollarsToCents(input.totalCharge!)),
            serviceDate: input.serviceDate!,
            status: 'submitted',
            idempotencyKey,
            correlationId,
            submittedAt: now,
          },
        });
      }
      await recordAudit(tx, {
        action: 'claims.submit',
        outcome: 'success',
        correlationId,
        userId: input.userId,
        orgId: input.orgId,
        clinicId,
        detail: { claimId, created: input.claimId === undefined },
      });
      return tx.claim.findUniqueOrThrow({ where: { id: claimId } });
    }, TRANSACTION_OPTIONS);
    return { ...toClaimView(claim), correlationId };
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was already used; nothing was created', {
        cause: error,
      });
    }
    throw error;
  }
}
