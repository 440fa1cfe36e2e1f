// POST /api/emr-sync/runs/{id}/cancel: the integrations screen's Cancel for a pull that has not finished. A queued
// run is cancelled at once with its job (no worker will take it); a running one is marked `cancelling`, and its
// worker (pull-job.ts, which watches the row) stops at its next wait or request, DELETEs the EHR's export and saves
// nothing, leaving the run `cancelled`. A pull that reaches its commit before the worker looks still finishes: the
// run then says `succeeded`. Clinic-scoped (another clinic's run is 404) and audited.
import { fromPrisma } from 'pg-boss';
import { recordAudit } from '../audit/record-audit';
import { requireBoss } from '../background/boss';
import { keyedJobId } from '../background/keyed-job-id';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { AppError } from '../errors';
import { EMR_PULL_QUEUE } from './pull-job';
import { getSyncRun, type SyncRunView } from './sync-run-view';

export async function cancelSyncRun(
  deps: { db: Db; clock: Clock },
  input: { clinicId: string; orgId: string; userId: string; correlationId: string; id: string },
): Promise<SyncRunView> {
  const run = await getSyncRun(deps.db, { clinicId: input.clinicId, id: input.id });
  const audit = {
    userId: input.userId,
    orgId: input.orgId,
    clinicId: input.clinicId,
    correlationId: input.correlationId,
    action: 'emr.pull.cancel',
    detail: { syncRunId: run.id, was: run.status },
  };
  if (run.status === 'queued') {
    const boss = await requireBoss();
    await deps.db.$transaction(async (tx) => {
      const { count } = await tx.syncRun.updateMany({
        where: { id: run.id, status: 'queued' },
        data: { status: 'cancelled', finishedAt: deps.clock(), error: 'The pull was cancelled; nothing was saved' },
      });
      if (count) await boss.cancel(EMR_PULL_QUEUE, keyedJobId(EMR_PULL_QUEUE, run.id), { db: fromPrisma(tx) });
      // Taken by a worker in between: it is running now, and is stopped like a running one.
      else await tx.syncRun.updateMany({ where: { id: run.id, status: 'running' }, data: { status: 'cancelling' } });
      await recordAudit(tx, { ...audit, outcome: 'success' });
    });
  } else if (run.status === 'running') {
    await deps.db.$transaction(async (tx) => {
      await tx.syncRun.updateMany({ where: { id: run.id, status: 'running' }, data: { status: 'cancelling' } });
      await recordAudit(tx, { ...audit, outcome: 'success' });
    });
  } else if (run.status !== 'cancelling') {
    throw new AppError('NOT_EXECUTABLE', 'This pull has finished; there is nothing to cancel');
  }
  return getSyncRun(deps.db, { clinicId: input.clinicId, id: input.id });
}
