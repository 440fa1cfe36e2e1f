// GET /api/fhir/bulk-status/{jobId}: where an export stands. While the job runs: in progress, queued or exporting,
// with how long to wait before polling again (the edge answers 202 with Retry-After and X-Progress, SPEC Events
// 9); then the Bulk Data Access manifest plus `status` (completed or failed). Jobs of another clinic are not found.
import { z } from 'zod';
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { findKeyedJobState } from '../../background/find-keyed-job';
import { BULK_EXPORT_QUEUE } from './run-bulk-export-job';

const BULK_FILES_PATH = '/api/fhir/bulk-files';
/** How long a client should wait between polls. The job worker looks for work every second. */
const BULK_RETRY_AFTER_SECONDS = 1;

export const BulkExportManifest = z.object({
  transactionTime: z.string(),
  request: z.string(),
  requiresAccessToken: z.literal(true),
  output: z.array(z.object({ type: z.string(), url: z.string(), count: z.number().int() })),
  error: z.array(z.object({ type: z.literal('OperationOutcome'), url: z.string() })),
  status: z.enum(['completed', 'failed']),
});

export type BulkExportManifest = z.infer<typeof BulkExportManifest>;

export type BulkExportStatus =
  | { state: 'in-progress'; jobId: string; progress: 'queued' | 'exporting'; retryAfterSeconds: number }
  | { state: 'finished'; manifest: BulkExportManifest };

export async function getBulkExportStatus(
  deps: { db: Db; config: { appUrl: string } },
  input: { clinicId: string; jobId: string },
): Promise<BulkExportStatus> {
  const job = await deps.db.bulkExportJob.findFirst({
    where: { id: input.jobId, clinicId: input.clinicId },
    include: { files: { select: { id: true, resourceType: true, count: true }, orderBy: { id: 'asc' } } },
  });
  if (!job) throw new AppError('NOT_FOUND', 'No such export');
  if (job.status === 'running') {
    const work = await findKeyedJobState(deps.db, BULK_EXPORT_QUEUE, job.id);
    return {
      state: 'in-progress',
      jobId: job.id,
      progress: work === 'active' ? 'exporting' : 'queued',
      retryAfterSeconds: BULK_RETRY_AFTER_SECONDS,
    };
  }
  const url = (fileId: string) => `${deps.config.appUrl}${BULK_FILES_PATH}/${fileId}`;
  const manifest: BulkExportManifest = {
    transactionTime: job.transactionTime.toISOString(),
    request: job.request,
    requiresAccessToken: true,
    output: job.files
      .filter((f) => f.resourceType !== 'OperationOutcome')
      .map((f) => ({ type: f.resourceType, url: url(f.id), count: f.count })),
    error: job.files
      .filter((f) => f.resourceType === 'OperationOutcome')
      .map((f) => ({ type: 'OperationOutcome' as const, url: url(f.id) })),
    status: job.status === 'completed' ? 'completed' : 'failed',
  };
  return { state: 'finished', manifest };
}
