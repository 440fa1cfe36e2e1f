// GET /api/sandbox-ehr/fhir/{type}: the sandbox EHR's FHIR search (sandbox only; Bearer access token).
import { route } from '@/lib/http/route';
import { renderFhir } from '@/lib/http/fhir-response';
import { sandboxSearchEndpoint } from '@/lib/sandbox-ehr/endpoints';
import { searchSandboxFhir } from '@/lib/sandbox-ehr/search-sandbox-fhir';

export const GET = route({ ...sandboxSearchEndpoint, render: renderFhir }, ({ deps, params, query, request }) =>
  searchSandboxFhir(deps, { type: params.type, query, authorization: request.headers.get('authorization') }),
);
