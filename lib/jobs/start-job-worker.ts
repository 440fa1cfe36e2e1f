// The in-process job worker, started once per server process: every POLL_INTERVAL_MS it works each queue's due
// jobs one after another until none is left, and never lets an error stop the loop. Any number of processes may
// run it on one database (claims are SKIP LOCKED and leased; see claim-next-job.ts and job-lease.ts).
import os from 'node:os';
import type { Logger } from '../log';
import type { JobEngineDeps, JobHandler } from './job';
import { workNextJob } from './work-next-job';

export const POLL_INTERVAL_MS = 1000;

/** Names this process in Job.lockedBy, so list-jobs (and an operator) can see which instance holds a job. */
export const WORKER_ID = `${os.hostname()}:${process.pid}`;

const globalForWorker = globalThis as unknown as { __jobWorker?: { stop(): void } };

/** Starts the loop unless this process already runs one. The timer is unref'd: it never keeps the process alive. */
export function startJobWorker<D extends Omit<JobEngineDeps, 'log'>>(
  loadDeps: () => Promise<D>,
  handlers: (deps: D & { log: Logger }) => JobHandler[],
  log: Logger,
): { stop(): void } {
  if (globalForWorker.__jobWorker) return globalForWorker.__jobWorker;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const tick = async () => {
    try {
      const deps = { ...(await loadDeps()), log };
      for (const handler of handlers(deps)) {
        while (!stopped && (await workNextJob(deps, handler, WORKER_ID)));
      }
    } catch (error) {
      log.error({ err: String(error) }, 'job worker tick failed');
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
      globalForWorker.__jobWorker = undefined;
    },
  };
  globalForWorker.__jobWorker = handle;
  return handle;
}
