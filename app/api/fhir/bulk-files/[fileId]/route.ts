// GET /api/fhir/bulk-files/{fileId}: one NDJSON file of a finished export of the caller's clinic (patients:read;
// each download is PHI-logged).
import { route } from '@/lib/http/route';
import { renderBulkExportFile } from '@/lib/http/bulk-export-response';
import { getBulkExportFile } from '@/lib/fhir/endpoints';
import { readBulkExportFile } from '@/lib/fhir/bulk-export/read-bulk-export-file';

export const GET = route({ ...getBulkExportFile, render: renderBulkExportFile }, ({ params, actor, deps }) =>
  readBulkExportFile(deps, { reader: actor, fileId: params.fileId }),
);
