// GET /api/claims/{id}/transmissions: every document sent to the payer or received for the claim, oldest first,
// with its exact bytes (DECISIONS "Claims out"), so support staff see what the payer saw.
import { z } from 'zod';
import type { Db } from '../db';
import { getClinicClaim } from './claim-records';

export const TransmissionView = z.object({
  direction: z.enum(['out', 'in']),
  kind: z.enum(['837P', '999', '277CA', '276', '277', '835']),
  at: z.string(),
  controlNumber: z.string(),
  x12: z.string(),
});
export type TransmissionView = z.infer<typeof TransmissionView>;
export const TransmissionList = z.object({ transmissions: z.array(TransmissionView) });
type TransmissionList = z.infer<typeof TransmissionList>;

/** @throws NOT_FOUND (404) for a claim not in the clinic. */
export async function listTransmissions(
  deps: { db: Db },
  input: { clinicId: string; claimId: string },
): Promise<TransmissionList> {
  const claim = await getClinicClaim(deps.db, input.clinicId, input.claimId);
  const rows = await deps.db.claimTransmission.findMany({
    where: { claimId: claim.id, clinicId: input.clinicId },
    orderBy: [{ at: 'asc' }, { id: 'asc' }],
  });
  return {
    transmissions: rows.map((row) => ({
      direction: row.direction as 'out' | 'in',
      kind: row.kind as TransmissionList['transmissions'][number]['kind'],
      at: row.at.toISOString(),
      controlNumber: row.controlNumber,
      x12: row.x12,
    })),
  };
}
