// POST /api/claims/{id}/scrub: the scrubber's verdict on a claim as it would be sent now, without sending or
// changing anything (the editor shows it inline before submit). GET /api/claims/scrub-edits lists the edits.
import { z } from 'zod';
import type { Deps } from '../deps';
import { getBillingParties, getClinicClaim } from './claim-records';
import { SCRUB_EDITS } from './scrub/scrub-edits';
import { scrubStoredClaim } from './scrub-stored-claim';

export const ScrubResult = z.object({
  issues: z.array(z.object({ path: z.string(), message: z.string(), edit: z.string() })),
});

export const ScrubEditList = z.object({ edits: z.array(z.object({ id: z.string(), message: z.string() })) });

/** @throws NOT_FOUND (404) for a claim not in the clinic. */
export async function scrubClaimDryRun(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { clinicId: string; claimId: string },
): Promise<z.infer<typeof ScrubResult>> {
  const claim = await getClinicClaim(deps.db, input.clinicId, input.claimId);
  const { clinic, patient } = await getBillingParties(deps.db, input.clinicId, claim.patientId);
  const { issues } = await scrubStoredClaim(deps.db, {
    clinicId: input.clinicId,
    patientId: claim.patientId,
    claim,
    clinic,
    patient,
    now: deps.clock(),
  });
  return { issues };
}

export function listScrubEdits(): z.infer<typeof ScrubEditList> {
  return { edits: SCRUB_EDITS.map(({ id, message }) => ({ id, message })) };
}
