// GET and DELETE /api/sandbox-ehr/bulk-status/{job}: the sandbox EHR's export status and cancellation (sandbox only).
import { route } from '@/lib/http/route';
import { json } from '@/lib/http/responses';
import type { RenderContext } from '@/lib/http/route';
import { sandboxExportDeleteEndpoint, sandboxExportStatusEndpoint } from '@/lib/sandbox-ehr/endpoints';
import {
  deleteSandboxExport,
  sandboxExportStatus,
  type SandboxExportStatus,
} from '@/lib/sandbox-ehr/sandbox-bulk-export';

// Bulk Data: 202 with Retry-After and X-Progress while running, then 200 with the manifest.
const render = (status: SandboxExportStatus, { correlationId }: RenderContext) =>
  status.state === 'finished'
    ? json(status.manifest)
    : json(
        { code: 'IN_PROGRESS', message: 'The export is still running', correlationId },
        { status: 202, headers: { 'retry-after': String(status.retryAfterSeconds), 'x-progress': status.progress } },
      );

export const GET = route({ ...sandboxExportStatusEndpoint, render }, ({ deps, params, request }) =>
  sandboxExportStatus(deps, { job: params.job, authorization: request.headers.get('authorization') }),
);

export const DELETE = route(sandboxExportDeleteEndpoint, async ({ deps, params, request }) => {
  await deleteSandboxExport(deps, { job: params.job, authorization: request.headers.get('authorization') });
  return new Response(null, { status: 202 });
});
