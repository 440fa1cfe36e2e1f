// GET /api/sandbox-ehr/fhir/Group/{id}/$export: the sandbox EHR's Bulk Data group kick-off (sandbox only).
import { route } from '@/lib/http/route';
import { fhirResponse } from '@/lib/http/fhir-response';
import { informationOutcome } from '@/lib/fhir/operation-outcome';
import { sandboxGroupExportEndpoint } from '@/lib/sandbox-ehr/endpoints';
import { startSandboxExport, type SandboxExportStarted } from '@/lib/sandbox-ehr/sandbox-bulk-export';

const render = (started: SandboxExportStarted) =>
  fhirResponse(informationOutcome('The export has started; poll the Content-Location URL'), {
    status: 202,
    headers: { 'content-location': started.statusUrl },
  });

export const GET = route({ ...sandboxGroupExportEndpoint, render }, ({ deps, params, query, request }) =>
  startSandboxExport(deps, {
    groupId: params.id,
    query,
    prefer: request.headers.get('prefer'),
    authorization: request.headers.get('authorization'),
    requestUrl: request.url,
  }),
);
