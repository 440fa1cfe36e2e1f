// GET /api/fhir/$export (Prefer: respond-async): Bulk Data kick-off for the clinic's resources; 202 + Content-Location.
import { route } from '@/lib/http/route';
import { startSystemExport } from '@/lib/fhir/endpoints';
import { startBulkExport } from '@/lib/fhir/bulk-export/start-bulk-export';

export const GET = route(startSystemExport, ({ query, principal, deps, correlationId, request }) =>
  startBulkExport(deps, {
    level: 'system', query, clinicId: principal.clinicId, userId: principal.userId,
    prefer: request.headers.get('prefer'), requestUrl: request.url, correlationId,
  }));
