// GET /api/emr-sync/runs/{id}: one pull as the integrations screen follows it: queued, then running as a job
// (pull-job.ts; the pull writes progress as it goes, run-pull.ts), until it succeeds, fails or is cancelled. Clinic-scoped: another clinic's run is 404, like a missing
// one, so ids say nothing about other clinics. Never shows resources, tokens or upstream text: progress is counts
// (plus the EHR's X-Progress, cleaned), the error is our client-safe message.
import { z } from 'zod';
import type { Db } from '../db';
import { AppError } from '../errors';

export const RUN_PHASES = [
  'starting',
  'discovery',
  'exporting',
  'downloading',
  'searching',
  'committing',
  'done',
  'failed',
  'cancelled',
] as const;

/**
 * queued: waiting for a worker; running; cancelling: cancel was asked while it ran (the worker stops at its next
 * wait or request, DELETEs the EHR's export and saves nothing); succeeded, failed, cancelled: finished.
 */
export const RUN_STATUSES = ['queued', 'running', 'cancelling', 'succeeded', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** The statuses of a run that has not finished. */
export const OPEN_RUN_STATUSES: readonly RunStatus[] = ['queued', 'running', 'cancelling'];

export const RunProgress = z.object({
  phase: z.enum(RUN_PHASES),
  /** Output files in the Bulk Data manifest (0 for a search pull). */
  files: z.number().int(),
  filesDone: z.number().int(),
  /** Resources validated and staged so far. */
  resources: z.number().int(),
  /** The EHR's X-Progress while it exports, printable and at most 200 characters. */
  serverProgress: z.string().optional(),
});
export type RunProgress = z.infer<typeof RunProgress>;

const Counts = z.record(
  z.string(),
  z.union([
    z.object({ created: z.number(), updated: z.number(), unchanged: z.number(), deleted: z.number().optional() }),
    z.string(),
  ]),
);

export const SyncRunView = z.object({
  id: z.string(),
  connectionId: z.string().nullable(),
  kind: z.string(),
  status: z.enum(RUN_STATUSES),
  progress: RunProgress.nullable(),
  /**
   * succeeded: per type { created, updated, unchanged, deleted? } (deleted: stored resources the EHR's export listed
   * as deleted, removed); failed: { error: <code> }.
   */
  counts: Counts.nullable(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type SyncRunView = z.infer<typeof SyncRunView>;

export async function getSyncRun(db: Db, input: { clinicId: string; id: string }): Promise<SyncRunView> {
  const row = await db.syncRun.findUnique({ where: { id: input.id } });
  if (!row || row.clinicId !== input.clinicId) throw new AppError('NOT_FOUND', 'No such sync run');
  const progress = RunProgress.safeParse(row.progress);
  const counts = Counts.safeParse(row.counts);
  return {
    id: row.id,
    connectionId: row.connectionId,
    kind: row.kind,
    status: row.status as RunStatus,
    progress: progress.success ? progress.data : null,
    counts: counts.success ? counts.data : null,
    error: row.error,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
