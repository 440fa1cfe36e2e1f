// GET /api/sandbox-ehr/fhir/{type}: the sandbox EHR's FHIR search (sandbox only; Bearer access token).
import { route } from '@/lib/http/route';
import { renderFhir } from '@/lib/http/fhir-response';
import { sandboxSearchEndpoint } from '@/lib/sandbox-ehr/endpoints';
import { searchSandboxFhir } from '@/lib/sandbox-ehr/search-sandbox-fhir';
import { AppError } from '@/lib/errors';

export const GET = route({ ...sandboxSearchEndpoint, render: renderFhir }, ({ deps, params, query, request }) => {
  if (params.type === 'Group') throw new AppError('NOT_FOUND', 'Group is read, not searched');
  return searchSandboxFhir(deps, { type: params.type, query, authorization: request.headers.get('authorization') });
});
