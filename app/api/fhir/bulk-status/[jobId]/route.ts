// GET /api/fhir/bulk-status/{jobId}: 202 + Retry-After while running, then 200 with the manifest. DELETE cancels.
import { route } from '@/lib/http/route';
import { cancelBulkExportEndpoint, getBulkExportStatusEndpoint } from '@/lib/fhir/endpoints';
import { getBulkExportStatus } from '@/lib/fhir/bulk-export/bulk-export-status';
import { cancelBulkExport } from '@/lib/fhir/bulk-export/cancel-bulk-export';

export const GET = route(getBulkExportStatusEndpoint, ({ params, principal, deps, correlationId }) =>
  getBulkExportStatus(deps, { clinicId: principal.clinicId, jobId: params.jobId, correlationId }));

export const DELETE = route(cancelBulkExportEndpoint, ({ params, principal, deps }) =>
  cancelBulkExport(deps, { clinicId: principal.clinicId, jobId: params.jobId }));
