// GET /api/fhir/bulk-status/{jobId}: 202 + Retry-After while running, then 200 with the manifest. DELETE cancels.
import { route } from '@/lib/http/route';
import { renderBulkExportStatus } from '@/lib/http/bulk-export-response';
import { cancelBulkExportEndpoint, getBulkExportStatusEndpoint } from '@/lib/fhir/endpoints';
import { getBulkExportStatus } from '@/lib/fhir/bulk-export/bulk-export-status';
import { cancelBulkExport } from '@/lib/fhir/bulk-export/cancel-bulk-export';

export const GET = route(
  { ...getBulkExportStatusEndpoint, render: renderBulkExportStatus },
  ({ params, actor, deps }) => getBulkExportStatus(deps, { clinicId: actor.clinicId, jobId: params.jobId }),
);

export const DELETE = route(cancelBulkExportEndpoint, ({ params, actor, deps }) =>
  cancelBulkExport(deps, { clinicId: actor.clinicId, jobId: params.jobId }),
);
