// GET /api/claims/patients?q=: the claim editor's patient search (claims:write; billing has no patients:read).
import { route } from '@/lib/http/route';
import { findClaimPatientsEndpoint } from '@/lib/claims/endpoints';
import { findClaimPatients } from '@/lib/claims/find-claim-patients';

export const GET = route(findClaimPatientsEndpoint, ({ query, actor, deps }) =>
  findClaimPatients(deps, { ...query, clinicId: actor.clinicId }),
);
