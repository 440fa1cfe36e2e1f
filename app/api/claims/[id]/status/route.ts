// GET /api/claims/{id}/status: the payer's 277CA/277 history; refresh=true asks with a 276 first (claims:read).
// Only a refresh needs the clearinghouse: production without one refuses it (503) before any work.
import { route } from '@/lib/http/route';
import { requireClearinghouse } from '@/lib/deps';
import { claimStatusEndpoint } from '@/lib/claims/endpoints';
import { getClaimStatus } from '@/lib/claims/claim-status';

export const GET = route(claimStatusEndpoint, ({ params, query, actor, deps }) =>
  getClaimStatus(
    { ...deps, ...(query.refresh ? { clearinghouse: requireClearinghouse(deps) } : {}) },
    { clinicId: actor.clinicId, claimId: params.id, refresh: query.refresh, correlationId: actor.correlationId },
  ),
);
