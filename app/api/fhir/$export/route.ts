// GET /api/fhir/$export (Prefer: respond-async): Bulk Data kick-off for the clinic's resources; 202 + Content-Location.
import { route } from '@/lib/http/route';
import { renderBulkExportStarted } from '@/lib/http/bulk-export-response';
import { startSystemExport } from '@/lib/fhir/endpoints';
import { startBulkExport } from '@/lib/fhir/bulk-export/start-bulk-export';

export const GET = route({ ...startSystemExport, render: renderBulkExportStarted }, ({ query, actor, deps, request }) =>
  startBulkExport(deps, {
    level: 'system',
    query,
    ...actor,
    prefer: request.headers.get('prefer'),
    requestUrl: request.url,
  }),
);
