// GET /api/fhir/Patient/$export (Prefer: respond-async): Bulk Data kick-off for the Patient compartment.
import { route } from '@/lib/http/route';
import { startPatientExport } from '@/lib/fhir/endpoints';
import { startBulkExport } from '@/lib/fhir/bulk-export/start-bulk-export';

export const GET = route(startPatientExport, ({ query, principal, deps, correlationId, request }) =>
  startBulkExport(deps, {
    level: 'patient', query, clinicId: principal.clinicId, userId: principal.userId,
    prefer: request.headers.get('prefer'), requestUrl: request.url, correlationId,
  }));
