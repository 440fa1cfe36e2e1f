// GET /api/fhir/bulk-files/{fileId}: one NDJSON file of a finished export of the caller's clinic (patients:read).
import { route } from '@/lib/http/route';
import { getBulkExportFile } from '@/lib/fhir/endpoints';
import { readBulkExportFile } from '@/lib/fhir/bulk-export/read-bulk-export-file';

export const GET = route(getBulkExportFile, ({ params, principal, deps }) =>
  readBulkExportFile(deps, { clinicId: principal.clinicId, fileId: params.fileId }));
