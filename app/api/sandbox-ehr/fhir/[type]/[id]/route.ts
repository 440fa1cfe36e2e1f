// GET /api/sandbox-ehr/fhir/{type}/{id}: the sandbox EHR's FHIR read (sandbox only; Bearer access token).
import { route } from '@/lib/http/route';
import { renderFhir } from '@/lib/http/fhir-response';
import { sandboxReadEndpoint } from '@/lib/sandbox-ehr/endpoints';
import { readSandboxFhir } from '@/lib/sandbox-ehr/search-sandbox-fhir';

export const GET = route({ ...sandboxReadEndpoint, render: renderFhir }, ({ deps, params, request }) =>
  readSandboxFhir(deps, { ...params, authorization: request.headers.get('authorization') }),
);
