// GET or POST (FHIR Parameters body) /api/fhir/$export (Prefer: respond-async): Bulk Data kick-off for the clinic's
// resources; 202 + Content-Location.
import { route } from '@/lib/http/route';
import { renderBulkExportStarted } from '@/lib/http/bulk-export-response';
import { startSystemExport, startSystemExportByPost } from '@/lib/fhir/endpoints';
import { readParametersBody, startBulkExport } from '@/lib/fhir/bulk-export/start-bulk-export';

export const GET = route({ ...startSystemExport, render: renderBulkExportStarted }, ({ query, actor, deps, request }) =>
  startBulkExport(deps, {
    level: 'system',
    parameters: query,
    ...actor,
    prefer: request.headers.get('prefer'),
    requestUrl: request.url,
  }),
);

export const POST = route(
  { ...startSystemExportByPost, render: renderBulkExportStarted },
  ({ body, actor, deps, request }) =>
    startBulkExport(deps, {
      level: 'system',
      parameters: readParametersBody(body),
      ...actor,
      prefer: request.headers.get('prefer'),
      requestUrl: request.url,
    }),
);
