// POST /api/claims/{id}/scrub: the scrubber's dry run on the claim, nothing sent or changed (claims:read).
import { route } from '@/lib/http/route';
import { scrubClaimEndpoint } from '@/lib/claims/endpoints';
import { scrubClaimDryRun } from '@/lib/claims/scrub-claim-dry-run';

export const POST = route(scrubClaimEndpoint, ({ params, actor, deps }) =>
  scrubClaimDryRun(deps, { clinicId: actor.clinicId, claimId: params.id }),
);
