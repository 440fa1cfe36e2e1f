// Works one bulk export as a job of the "bulk-export" queue (lib/jobs): pages through the FHIR store type by
// type, checking between pages that the job's lease is still ours (the engine's heartbeat renews it while this
// process lives), then in one transaction writes the NDJSON files and marks the export completed, only while
// the claim still holds. A killed worker's export is claimed by another instance one lease later; after
// MAX_ATTEMPTS claims the job is dead-lettered and the export fails with an OperationOutcome file.
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import type { Logger } from '../../log';
import type { Job, JobHandler, Tx } from '../../jobs/job';
import type { JobLease } from '../../jobs/job-lease';
import type { FhirStore, LastUpdatedBound } from '../fhir-store';
import { isFhirResourceType, MAX_PAGE_SIZE } from '../resource-registry';

export const BULK_EXPORT_QUEUE = 'bulk-export';
/** A short lease: renewed every 5 s while the worker lives, so a dead instance's export moves on within ~15 s. */
export const LEASE_MS = 15_000;
export const MAX_ATTEMPTS = 3;
const RETRY_BACKOFF_MS = 5_000;
/** Resources per NDJSON file. */
export const RESOURCES_PER_FILE = 10_000;

type Deps = { db: Db; clock: Clock; fhirStore: FhirStore; log?: Logger };
type Export = NonNullable<Awaited<ReturnType<Db['bulkExportJob']['findUnique']>>>;
type OutputFile = { resourceType: string; count: number; ndjson: string };

export function bulkExportHandler(deps: Deps): JobHandler {
  return {
    queue: BULK_EXPORT_QUEUE,
    leaseMs: LEASE_MS,
    backoffMs: RETRY_BACKOFF_MS,
    async run(job, lease) {
      const exportRow = await deps.db.bulkExportJob.findUnique({ where: { id: exportIdOf(job) } });
      if (!exportRow || exportRow.status !== 'running') return; // cancelled (or already finished): nothing to do
      const outputs = await exportFiles(deps, exportRow, lease);
      await lease.complete(async (tx) => finishExport(tx, exportRow.id, 'completed', outputs, deps.clock()));
      deps.log?.info(
        { jobId: exportRow.id, correlationId: exportRow.correlationId, files: outputs.length },
        'bulk export completed',
      );
    },
    async onDead(tx, job, cause) {
      const text =
        cause === 'abandoned'
          ? `The export did not finish after ${MAX_ATTEMPTS} attempts`
          : 'The export could not be completed';
      await finishExport(tx, exportIdOf(job), 'failed', [errorFile(text)], deps.clock());
      deps.log?.warn({ jobId: exportIdOf(job), attempts: job.attempts }, 'bulk export gave up');
    },
  };
}

/** The export's id is the job's key (one job per export). */
const exportIdOf = (job: Job) => job.key ?? '';

async function exportFiles(deps: Deps, job: Export, lease: JobLease): Promise<OutputFile[]> {
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
      lease.assertHeld();
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
