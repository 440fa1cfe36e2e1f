// GET /api/fhir/Patient/$export (Prefer: respond-async): Bulk Data kick-off for the Patient compartment.
import { route } from '@/lib/http/route';
import { renderBulkExportStarted } from '@/lib/http/bulk-export-response';
import { startPatientExport } from '@/lib/fhir/endpoints';
import { startBulkExport } from '@/lib/fhir/bulk-export/start-bulk-export';

export const GET = route(
  { ...startPatientExport, render: renderBulkExportStarted },
  ({ query, actor, deps, request }) =>
    startBulkExport(deps, {
      level: 'patient',
      query,
      ...actor,
      prefer: request.headers.get('prefer'),
      requestUrl: request.url,
    }),
);
