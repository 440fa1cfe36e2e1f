// The in-process bulk export worker, started once per server process from lib/start-up.ts: looks for work every
// second, runs jobs one after another, and never lets an error stop the loop. Several processes (or a restart)
// are safe: jobs are claimed by lease (run-bulk-export-job.ts).
import type { Logger } from '../../log';
import { runNextBulkExportJob } from './run-bulk-export-job';

type WorkerDeps = Omit<Parameters<typeof runNextBulkExportJob>[0], 'log'>;

export const POLL_INTERVAL_MS = 1000;

const globalForWorker = globalThis as unknown as { __bulkExportWorker?: { stop(): void } };

/** Starts the loop unless this process already runs one. The timer is unref'd: it never keeps the process alive. */
export function startBulkExportWorker(loadDeps: () => Promise<WorkerDeps>, log: Logger): { stop(): void } {
  if (globalForWorker.__bulkExportWorker) return globalForWorker.__bulkExportWorker;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const tick = async () => {
    try {
      // Only what the job needs: spreading Deps would also build every other lazily built adapter.
      const { db, clock, fhirStore } = await loadDeps();
      const deps = { db, clock, fhirStore, log };
      // Drain: keep going while there is work, then wait for the next poll.
      while (!stopped && (await runNextBulkExportJob(deps)));
    } catch (error) {
      log.error({ err: String(error) }, 'bulk export worker tick failed');
    }
    if (!stopped) {
      timer = setTimeout(tick, POLL_INTERVAL_MS);
      timer.unref();
    }
  };
  timer = setTimeout(tick, POLL_INTERVAL_MS);
  timer.unref();

  const handle = {
    stop() {
      stopped = true;
      clearTimeout(timer);
      globalForWorker.__bulkExportWorker = undefined;
    },
  };
  globalForWorker.__bulkExportWorker = handle;
  return handle;
}
