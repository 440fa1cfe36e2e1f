// Works one bulk export job: claims it with a lease (a compare-and-swap on leaseUntil, whose new value is this
// worker's lease token), pages through the FHIR store type by type, and in one transaction writes the NDJSON
// files and marks the job completed, but only while it still holds the lease. A worker that dies leaves a lease
// that expires, so another picks the job up; after MAX_ATTEMPTS claims the job fails instead of running forever.
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import type { Logger } from '../../log';
import type { FhirStore, LastUpdatedBound } from '../fhir-store';
import { isFhirResourceType, MAX_PAGE_SIZE } from '../resource-registry';

export const LEASE_MS = 120_000;
export const MAX_ATTEMPTS = 3;
const RETRY_BACKOFF_MS = 5_000;
/** Resources per NDJSON file. */
export const RESOURCES_PER_FILE = 10_000;

type Deps = { db: Db; clock: Clock; fhirStore: FhirStore; log?: Logger };
type Job = NonNullable<Awaited<ReturnType<Db['bulkExportJob']['findFirst']>>>;
type OutputFile = { resourceType: string; count: number; ndjson: string };

class LeaseLost extends Error {}

/** Claims and works the oldest job that is waiting or whose lease has expired. Returns false when there was none. */
export async function runNextBulkExportJob(deps: Deps): Promise<boolean> {
  const now = deps.clock();
  const candidate = await deps.db.bulkExportJob.findFirst({
    where: { status: 'running', OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    orderBy: { createdAt: 'asc' },
  });
  if (!candidate) return false;

  if (candidate.attempts >= MAX_ATTEMPTS) {
    // Claimed MAX_ATTEMPTS times and never finished (crashes or repeated failures): give up, visibly.
    await finish(deps, candidate, candidate.leaseUntil, 'failed', [errorFile(`The export did not finish after ${MAX_ATTEMPTS} attempts`)]).catch(ignoreLeaseLost);
    deps.log?.warn({ jobId: candidate.id, attempts: candidate.attempts }, 'bulk export gave up');
    return true;
  }
  const lease = new Date(now.getTime() + LEASE_MS);
  const claimed = await deps.db.bulkExportJob.updateMany({
    where: { id: candidate.id, status: 'running', leaseUntil: candidate.leaseUntil },
    data: { leaseUntil: lease, attempts: { increment: 1 } },
  });
  if (claimed.count !== 1) return true; // another worker took it first

  try {
    const files = await exportFiles(deps, candidate, lease);
    await finish(deps, candidate, files.lease, 'completed', files.outputs);
    deps.log?.info({ jobId: candidate.id, correlationId: candidate.correlationId, files: files.outputs.length }, 'bulk export completed');
  } catch (error) {
    if (error instanceof LeaseLost) return true; // cancelled, or taken over after our lease ran out
    deps.log?.error({ jobId: candidate.id, correlationId: candidate.correlationId, err: String(error) }, 'bulk export attempt failed');
    if (candidate.attempts + 1 >= MAX_ATTEMPTS) {
      await finish(deps, candidate, lease, 'failed', [errorFile('The export could not be completed')]).catch(ignoreLeaseLost);
    } else {
      // Retry after a short back-off (not in a tight loop), by shortening our own lease.
      const retryAt = new Date(deps.clock().getTime() + RETRY_BACKOFF_MS * (candidate.attempts + 1));
      await deps.db.bulkExportJob.updateMany({ where: { id: candidate.id, status: 'running', leaseUntil: lease }, data: { leaseUntil: retryAt } });
    }
  }
  return true;
}

async function exportFiles(deps: Deps, job: Job, initialLease: Date): Promise<{ outputs: OutputFile[]; lease: Date }> {
  let lease = initialLease;
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
      const page = await deps.fhirStore.search(job.clinicId, {
        resourceType, lastUpdated: bounds, inPatientCompartment: job.level === 'patient', count: MAX_PAGE_SIZE, ...(cursor && { cursor }),
      });
      for (const resource of page.resources) {
        lines.push(JSON.stringify(resource));
        if (lines.length >= RESOURCES_PER_FILE) flush();
      }
      cursor = page.nextCursor ?? undefined;
      lease = await renewLease(deps, job.id, lease);
    } while (cursor);
    flush();
  }
  return { outputs, lease };
}

/** Extends our lease when half of it is gone; throws LeaseLost when the job was cancelled or taken over. */
async function renewLease(deps: Deps, jobId: string, lease: Date): Promise<Date> {
  const now = deps.clock().getTime();
  if (lease.getTime() - now > LEASE_MS / 2) return lease;
  const renewed = new Date(now + LEASE_MS);
  const { count } = await deps.db.bulkExportJob.updateMany({ where: { id: jobId, status: 'running', leaseUntil: lease }, data: { leaseUntil: renewed } });
  if (count !== 1) throw new LeaseLost();
  return renewed;
}

/** Writes the files and the final status together, only if the job is still ours (same lease token). */
async function finish(deps: Deps, job: Job, lease: Date | null, status: 'completed' | 'failed', files: OutputFile[]): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.bulkExportJob.updateMany({
      where: { id: job.id, status: 'running', leaseUntil: lease },
      data: { status, finishedAt: deps.clock(), leaseUntil: null, ...(status === 'failed' && { error: files[0]?.ndjson.slice(0, 500) ?? null }) },
    });
    if (count !== 1) throw new LeaseLost();
    if (files.length) await tx.bulkExportFile.createMany({ data: files.map((file) => ({ jobId: job.id, ...file })) });
  });
}

function errorFile(text: string): OutputFile {
  const outcome = { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'exception', details: { text } }] };
  return { resourceType: 'OperationOutcome', count: 1, ndjson: `${JSON.stringify(outcome)}\n` };
}

function ignoreLeaseLost(error: unknown): void {
  if (!(error instanceof LeaseLost)) throw error;
}
