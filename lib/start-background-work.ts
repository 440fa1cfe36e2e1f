// Start-up's background side (APP_ROLE, DECISIONS "Fleet operations"): every role starts the job engine and declares
// every queue, because every role sends jobs; `all` and `worker` also work every queue, supervise (a killed worker's
// job is retried elsewhere), keep the cron schedules and dispatch outbound webhook deliveries; `web` works no job
// and runs no schedule. Every role stops gracefully on SIGTERM or SIGINT (background/exit-gracefully.ts): the
// schedule sync and the dispatcher stop, the engine takes no new job and gives those running JOB_GRACE_MS to finish
// (pg-boss fails the rest, for a retry elsewhere), and the HTTP requests in flight are answered before the exit.
import type { PgBoss } from 'pg-boss';
import { startBoss } from './background/boss';
import { installGracefulExit } from './background/exit-gracefully';
import { declareQueues, startWorkers } from './background/start-workers';
import type { JobHandler } from './background/job-handler';
import { sandboxRemittanceHandler } from './claims/sandbox-remittance';
import type { ClearinghouseTransport } from './clearinghouse/clearinghouse-transport';
import type { Deps } from './deps';
import type { PayerTransport } from './eligibility/payer-transport';
import type { FhirStore } from './fhir/fhir-store';
import { preVerificationHandler } from './eligibility/pre-verify-appointments';
import { startEventDispatcher } from './events/start-event-dispatcher';
import { bulkExportHandler } from './fhir/bulk-export/run-bulk-export-job';
import { emrPullHandler } from './emr/pull-job';
import { reconcileHandler } from './reconciliation/reconcile-day';
import { eraPostingHandler } from './remittances/era-post-job';
import { scheduleHandler } from './schedules/schedule-handler';
import { schedulesFor } from './schedules/schedules';
import { syncSchedules } from './schedules/sync-schedules';

/** How often a worker re-reads the clinics' time zones into the schedules. */
const SCHEDULE_SYNC_MS = 5 * 60 * 1000;
/**
 * How long a stopping instance waits for its running jobs and requests (a big ERA posting takes seconds; a
 * reconciliation's transaction at most a minute, and is retried). The supervisor must wait longer than this plus a
 * few seconds before it kills the process (docs/operations.md "Stopping an instance").
 */
const JOB_GRACE_MS = 20_000;

/**
 * `fhirStore`, `payer` and `clearinghouse` come from the composition root (start-up); the last two are built on first
 * use, and `clearinghouse` answers null where none is configured (the schedules that need one then skip).
 * `beforeWork` runs once the queues exist and before this process works any job (the demo history's seed, whose
 * sandbox submits queue jobs it must finish itself first).
 */
export async function startBackgroundWork(
  deps: Deps & {
    fhirStore: FhirStore;
    payer(): PayerTransport;
    clearinghouse(): ClearinghouseTransport | null;
    beforeWork?: () => Promise<void>;
  },
): Promise<PgBoss> {
  const { config, db, clock, log } = deps;
  const works = config.appRole !== 'web';
  const boss = await startBoss(deps, { works });
  // What a working role starts below, stopped first on the way out.
  const running: { dispatcher?: { stop(): void }; scheduleSync?: NodeJS.Timeout } = {};
  installGracefulExit({
    log,
    deadlineMs: JOB_GRACE_MS,
    async stopWork() {
      clearInterval(running.scheduleSync);
      running.dispatcher?.stop();
      await boss.stop({ graceful: true, timeout: JOB_GRACE_MS });
    },
  });
  const schedules = schedulesFor(config.mode);
  const handlers = [
    bulkExportHandler({ db, clock, fhirStore: deps.fhirStore, log }),
    emrPullHandler({ db, clock, config, fhirStore: deps.fhirStore, egress: deps.egress, log }),
    sandboxRemittanceHandler(deps),
    reconcileHandler(deps),
    eraPostingHandler(deps),
    preVerificationHandler(deps),
    ...schedules.map((schedule) =>
      scheduleHandler({ db, clock, boss, log, clearinghouse: deps.clearinghouse }, schedule),
    ),
  ] as unknown as JobHandler[];
  await declareQueues(boss, handlers);
  await deps.beforeWork?.();
  if (!works) {
    log.info({ role: config.appRole }, 'job engine started: sending only (APP_ROLE=web)');
    return boss;
  }
  await startWorkers(boss, handlers, log.child({ worker: 'jobs' }));
  await syncSchedules(boss, db, schedules);
  running.dispatcher = startEventDispatcher(deps);
  const timer = setInterval(() => {
    syncSchedules(boss, db, schedules).catch((error: unknown) =>
      log.error({ err: error instanceof Error ? error.message : String(error) }, 'schedule sync failed'),
    );
  }, SCHEDULE_SYNC_MS);
  timer.unref();
  running.scheduleSync = timer;
  log.info({ role: config.appRole, queues: handlers.length }, 'job engine started: working every queue and schedule');
  return boss;
}
