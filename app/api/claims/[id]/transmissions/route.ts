// GET /api/claims/{id}/transmissions: every document sent or received for the claim, exact bytes (claims:read).
import { route } from '@/lib/http/route';
import { listTransmissionsEndpoint } from '@/lib/claims/endpoints';
import { listTransmissions } from '@/lib/claims/list-transmissions';

export const GET = route(listTransmissionsEndpoint, ({ params, actor, deps }) =>
  listTransmissions(deps, { clinicId: actor.clinicId, claimId: params.id }),
);
