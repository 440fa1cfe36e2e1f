// Works one bulk export as a job of the "bulk-export" queue (pg-boss, lib/background): pages through the FHIR store
// type by type, stopping between pages when this worker's claim is gone (job.signal: another instance took the job
// over), then in one transaction writes the NDJSON files and marks the export completed, only if it is still
// running (so a second worker finishing the same export writes nothing). A killed worker's heartbeat stops and a
// supervising instance hands the job to another worker; after MAX_ATTEMPTS attempts its dead letter fails the export
// with an OperationOutcome file.
import type { Clock } from '../../clock';
import type { Db, Prisma } from '../../db';
import type { Logger } from '../../log';
import type { JobHandler } from '../../background/job-handler';
import type { FhirStore, LastUpdatedBound } from '../fhir-store';
import { isFhirResourceType, MAX_PAGE_SIZE } from '../resource-registry';

export const BULK_EXPORT_QUEUE = 'bulk-export';
export const MAX_ATTEMPTS = 3;
/** Resources per NDJSON file. */
export const RESOURCES_PER_FILE = 10_000;

type Tx = Prisma.TransactionClient;
type Deps = { db: Db; clock: Clock; fhirStore: FhirStore; log?: Logger };
type Export = NonNullable<Awaited<ReturnType<Db['bulkExportJob']['findUnique']>>>;
type OutputFile = { resourceType: string; count: number; ndjson: string };
/** The job's data: the export (its id is also the job's key) and, for GET /api/jobs, its clinic. */
export type BulkExportJobData = { exportId: string; clinicId: string; correlationId: string };

export function bulkExportHandler(deps: Deps): JobHandler<BulkExportJobData> {
  return {
    queue: BULK_EXPORT_QUEUE,
    options: {
      retryLimit: MAX_ATTEMPTS - 1,
      retryDelay: 5,
      retryBackoff: true,
      // pg-boss's smallest heartbeat: a killed worker's export moves on within ~15 s (supervision every 5 s).
      heartbeatSeconds: 10,
      expireInSeconds: 60 * 60,
    },
    pollingIntervalSeconds: 1,
    async run(job) {
      const exportRow = await deps.db.bulkExportJob.findUnique({ where: { id: job.data.exportId } });
      if (!exportRow || exportRow.status !== 'running') return { exported: false }; // cancelled or finished
      const outputs = await exportFiles(deps, exportRow, job.signal);
      await deps.db.$transaction((tx) => finishExport(tx, exportRow.id, 'completed', outputs, deps.clock()), {
        maxWait: 10_000,
        timeout: 60_000,
      });
      deps.log?.info(
        { jobId: exportRow.id, correlationId: exportRow.correlationId, files: outputs.length },
        'bulk export completed',
      );
      return { exported: true, files: outputs.length };
    },
    async onDead(job) {
      const text = `The export could not be completed in ${MAX_ATTEMPTS} attempts`;
      await deps.db.$transaction((tx) =>
        finishExport(tx, job.data.exportId, 'failed', [errorFile(text)], deps.clock()),
      );
      deps.log?.warn({ jobId: job.data.exportId }, 'bulk export gave up');
    },
  };
}

async function exportFiles(deps: Deps, job: Export, signal: AbortSignal): Promise<OutputFile[]> {
  const outputs: OutputFile[] = [];
  const bounds: LastUpdatedBound[] = [{ prefix: 'le', at: job.transactionTime }];
  if (job.since) bounds.push({ prefix: 'ge', at: job.since });
  for (const resourceType of job.types) {
    if (!isFhirResourceType(resourceType)) continue;
    let lines: string[] = [];
    const flush = () => {
      if (lines.length) outputs.push({ resourceType, count: lines.length, ndjson: `${lines.join('\n')}\n` });
      lines = [];
    };
    let cursor: string | undefined;
    do {
      signal.throwIfAborted(); // the job was taken over: stop, write nothing
      const page = await deps.fhirStore.search(job.clinicId, {
        resourceType,
        lastUpdated: bounds,
        inPatientCompartment: job.level === 'patient',
        count: MAX_PAGE_SIZE,
        ...(cursor && { cursor }),
      });
      for (const resource of page.resources) {
        lines.push(JSON.stringify(resource));
        if (lines.length >= RESOURCES_PER_FILE) flush();
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    flush();
  }
  return outputs;
}

/** Writes the files and the export's final status; an export cancelled meanwhile (row gone) gets nothing. */
async function finishExport(
  tx: Tx,
  exportId: string,
  status: 'completed' | 'failed',
  files: OutputFile[],
  now: Date,
): Promise<void> {
  const { count } = await tx.bulkExportJob.updateMany({
    where: { id: exportId, status: 'running' },
    data: { status, finishedAt: now, ...(status === 'failed' && { error: files[0]?.ndjson.slice(0, 500) ?? null }) },
  });
  if (count === 1 && files.length)
    await tx.bulkExportFile.createMany({ data: files.map((file) => ({ jobId: exportId, ...file })) });
}

function errorFile(text: string): OutputFile {
  const outcome = {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code: 'exception', details: { text } }],
  };
  return { resourceType: 'OperationOutcome', count: 1, ndjson: `${JSON.stringify(outcome)}\n` };
}
