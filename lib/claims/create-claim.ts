// POST /api/claims: a draft claim for a patient of the caller's clinic, with its lines and diagnoses. The body
// rules and amount caps hold already (CreateClaimBody, 400 naming each field); the scrubber runs on the dry run
// and on submit. An idempotency key is single-use per
// clinic for creation (its own purpose, so the same key may later submit the draft).
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { isUniqueViolation } from '../db/is-unique-violation';
import { parseDollarsToCents } from '../money/dollars';
import { requireClinicPatients } from '../patients/require-clinic-patients';
import { CreateClaimBody, IdempotencyKey } from './claim-body';
import { normaliseDiagnoses, sumOfLines, toLineRows } from './claim-records';
import { recordClaimEvent } from './claim-states';
import { CLAIM_LINES, toClaimViewOf, type ClaimView } from './claim-view';

export const CreateDraftBody = CreateClaimBody.extend({ idempotencyKey: IdempotencyKey.optional() });
export type CreateDraftBody = z.infer<typeof CreateDraftBody>;

const IDEMPOTENCY_PURPOSE = 'claims.create';

/**
 * `clm_` and 16 lower-case hex characters (64 random bits): 20 characters, so CLM01 and the 835's CLP01 carry the
 * id whole (DECISIONS "Claim lifecycle"; many payers keep only 20 characters of CLM01).
 */
export function newClaimId(): string {
  return `clm_${randomBytes(8).toString('hex')}`;
}

/**
 * @throws OUT_OF_SCOPE (403) for a patient outside the clinic; IDEMPOTENCY_KEY_REUSED (409) for a key used before
 *   (nothing is created).
 */
export async function createClaim(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: CreateDraftBody & { clinicId: string; userId: string; correlationId: string },
): Promise<ClaimView> {
  const { db } = deps;
  const now = deps.clock();
  const { clinicId, correlationId } = input;
  await requireClinicPatients(db, clinicId, [input.patientId]);
  const claimId = newClaimId();
  try {
    const claim = await db.$transaction(async (tx) => {
      if (input.idempotencyKey !== undefined) {
        await tx.idempotencyKey.create({
          data: { clinicId, purpose: IDEMPOTENCY_PURPOSE, key: input.idempotencyKey, resourceId: claimId },
        });
      }
      await tx.claim.create({
        data: {
          id: claimId,
          clinicId,
          createdAt: now,
          patientId: input.patientId,
          status: 'draft',
          serviceDate: input.serviceDate,
          placeOfService: input.placeOfService ?? '11',
          diagnoses: normaliseDiagnoses(input.diagnoses),
          renderingNpi: input.renderingNpi ?? null,
          totalChargeCents: BigInt(
            input.totalCharge !== undefined ? parseDollarsToCents(input.totalCharge) : sumOfLines(input.lines),
          ),
          correlationId,
        },
      });
      await tx.claimLine.createMany({ data: toLineRows(clinicId, claimId, input.lines) });
      await recordClaimEvent(tx, {
        clinicId,
        claimId,
        kind: 'created',
        toStatus: 'draft',
        detail: { by: input.userId },
        correlationId,
        at: now,
      });
      return tx.claim.findUniqueOrThrow({ where: { id: claimId }, include: CLAIM_LINES });
    });
    return await toClaimViewOf(deps.db, clinicId, claim);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was already used; nothing was created', {
        cause: error,
      });
    }
    throw error;
  }
}
