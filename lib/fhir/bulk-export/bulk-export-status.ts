// GET /api/fhir/bulk-status/{jobId}: 202 with Retry-After and { code: IN_PROGRESS, jobId, retryAfterSeconds }
// while the job runs (SPEC Events 9), then 200 with the Bulk Data Access manifest plus `status` (completed or
// failed). Jobs of another clinic are not found. The in-progress body is also our error-body shape (code,
// message, correlationId: IN_PROGRESS is one of our codes), with jobId and retryAfterSeconds beside them.
import { z } from 'zod';
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { accepted, json } from '../../http/responses';
import { BULK_EXPORT_QUEUE } from './run-bulk-export-job';

export const BULK_FILES_PATH = '/api/fhir/bulk-files';
/** How long a client should wait between polls. The job worker looks for work every second. */
export const BULK_RETRY_AFTER_SECONDS = 1;

export const BulkExportManifest = z.object({
  transactionTime: z.string(),
  request: z.string(),
  requiresAccessToken: z.literal(true),
  output: z.array(z.object({ type: z.string(), url: z.string(), count: z.number().int() })),
  error: z.array(z.object({ type: z.literal('OperationOutcome'), url: z.string() })),
  status: z.enum(['completed', 'failed']),
});

export const BulkExportInProgress = z.object({
  code: z.literal('IN_PROGRESS'), message: z.string(), correlationId: z.string(), jobId: z.string(), retryAfterSeconds: z.number(),
});

export async function getBulkExportStatus(
  deps: { db: Db; config: { appUrl: string } },
  input: { clinicId: string; jobId: string; correlationId: string },
): Promise<Response> {
  const job = await deps.db.bulkExportJob.findFirst({
    where: { id: input.jobId, clinicId: input.clinicId },
    include: { files: { select: { id: true, resourceType: true, count: true }, orderBy: { id: 'asc' } } },
  });
  if (!job) throw new AppError('NOT_FOUND', 'No such export');
  if (job.status === 'running') {
    const work = await deps.db.job.findUnique({ where: { queue_key: { queue: BULK_EXPORT_QUEUE, key: job.id } }, select: { state: true } });
    return accepted(
      {
        code: 'IN_PROGRESS', message: 'The export is still running', correlationId: input.correlationId,
        jobId: job.id, retryAfterSeconds: BULK_RETRY_AFTER_SECONDS,
      } satisfies z.infer<typeof BulkExportInProgress>,
      { 'retry-after': String(BULK_RETRY_AFTER_SECONDS), 'x-progress': work?.state === 'running' ? 'exporting' : 'queued' },
    );
  }
  const url = (fileId: string) => `${deps.config.appUrl}${BULK_FILES_PATH}/${fileId}`;
  const manifest: z.infer<typeof BulkExportManifest> = {
    transactionTime: job.transactionTime.toISOString(),
    request: job.request,
    requiresAccessToken: true,
    output: job.files.filter((f) => f.resourceType !== 'OperationOutcome').map((f) => ({ type: f.resourceType, url: url(f.id), count: f.count })),
    error: job.files.filter((f) => f.resourceType === 'OperationOutcome').map((f) => ({ type: 'OperationOutcome' as const, url: url(f.id) })),
    status: job.status === 'completed' ? 'completed' : 'failed',
  };
  return json(manifest);
}
