// GET or POST (FHIR Parameters body) /api/fhir/Patient/$export (Prefer: respond-async): Bulk Data kick-off for the
// Patient compartment; 202 + Content-Location.
import { route } from '@/lib/http/route';
import { renderBulkExportStarted } from '@/lib/http/bulk-export-response';
import { startPatientExport, startPatientExportByPost } from '@/lib/fhir/endpoints';
import { readParametersBody, startBulkExport } from '@/lib/fhir/bulk-export/start-bulk-export';

export const GET = route(
  { ...startPatientExport, render: renderBulkExportStarted },
  ({ query, actor, deps, request }) =>
    startBulkExport(deps, {
      level: 'patient',
      parameters: query,
      ...actor,
      prefer: request.headers.get('prefer'),
      requestUrl: request.url,
    }),
);

export const POST = route(
  { ...startPatientExportByPost, render: renderBulkExportStarted },
  ({ body, actor, deps, request }) =>
    startBulkExport(deps, {
      level: 'patient',
      parameters: readParametersBody(body),
      ...actor,
      prefer: request.headers.get('prefer'),
      requestUrl: request.url,
    }),
);
