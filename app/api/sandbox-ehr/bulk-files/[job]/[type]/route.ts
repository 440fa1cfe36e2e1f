// GET /api/sandbox-ehr/bulk-files/{job}/{type}: one NDJSON file of a sandbox EHR export (sandbox only).
import { route } from '@/lib/http/route';
import { renderBulkExportFile } from '@/lib/http/bulk-export-response';
import { sandboxExportFileEndpoint } from '@/lib/sandbox-ehr/endpoints';
import { readSandboxExportFile } from '@/lib/sandbox-ehr/sandbox-bulk-export';

export const GET = route({ ...sandboxExportFileEndpoint, render: renderBulkExportFile }, ({ deps, params, request }) =>
  readSandboxExportFile(deps, { ...params, authorization: request.headers.get('authorization') }),
);
