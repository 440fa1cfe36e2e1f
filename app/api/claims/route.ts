// GET /api/claims: the clinic's claims, newest first, at most 100, JSON or CSV (claims:read).
// POST /api/claims: create a draft claim (claims:write, 201).
import { route } from '@/lib/http/route';
import { createClaimEndpoint, listClaimsEndpoint } from '@/lib/claims/endpoints';
import { ClaimList, listClaims } from '@/lib/claims/list-claims';
import { claimsCsv } from '@/lib/claims/claims-csv';
import { csvOrJson } from '@/lib/http/csv-or-json';
import { createClaim } from '@/lib/claims/create-claim';

export const GET = route({ ...listClaimsEndpoint, render: csvOrJson(ClaimList, claimsCsv) }, ({ query, actor, deps }) =>
  listClaims(deps, { patientId: query.patientId, status: query.status, clinicId: actor.clinicId }),
);

export const POST = route(createClaimEndpoint, ({ body, actor, deps }) => createClaim(deps, { ...body, ...actor }));
