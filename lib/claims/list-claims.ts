// The clinic's claims, newest first, at most 100 (SPEC.md, Limits), optionally for one patient or some statuses
// (`status=denied,partially_paid`: the work queue's filters).
import { z } from 'zod';
import type { Db } from '../db';
import { CLAIM_STATUSES, ClaimView, CLAIM_LINES, toClaimViews } from './claim-view';
import { isClaimStatus } from './claim-states';
import { requireClinicPatients } from '../patients/require-clinic-patients';

export const CLAIMS_LIST_LIMIT = 100;

const StatusList = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .transform((value, ctx) => {
    const statuses = [...new Set(value.split(',').map((s) => s.trim()))];
    const unknown = statuses.filter((s) => !isClaimStatus(s));
    if (unknown.length) {
      ctx.addIssue({ code: 'custom', message: `status must be among ${CLAIM_STATUSES.join(', ')}, comma-separated` });
      return z.NEVER;
    }
    return statuses;
  });

export const ListClaimsQuery = z.object({
  patientId: z.string().trim().min(1).max(200).optional(),
  status: StatusList.optional(),
});

export const ClaimList = z.object({ claims: z.array(ClaimView) });

/** @throws OUT_OF_SCOPE (403) when filtering by a patient outside the clinic (as submit does). */
export async function listClaims(
  deps: { db: Db },
  input: z.infer<typeof ListClaimsQuery> & { clinicId: string },
): Promise<z.infer<typeof ClaimList>> {
  if (input.patientId !== undefined) await requireClinicPatients(deps.db, input.clinicId, [input.patientId]);
  const rows = await deps.db.claim.findMany({
    where: {
      clinicId: input.clinicId,
      patientId: input.patientId,
      ...(input.status ? { status: { in: input.status } } : {}),
    },
    include: CLAIM_LINES,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: CLAIMS_LIST_LIMIT,
  });
  return { claims: await toClaimViews(deps.db, input.clinicId, rows) };
}
