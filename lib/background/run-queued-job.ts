// Work done once per key at a time, for a caller that wants the answer now (an operator's cron route): the caller
// queues the key's job on a queue of policy `exclusive` (pg-boss keeps one queued-or-active job per key), or finds
// the one already queued or running, and waits for a worker of any instance to finish it, answering with its
// output. Overlapping callers share one run and its result; a caller after it finished runs the work again.
import type { PgBoss } from 'pg-boss';
import { AppError } from '../errors';

export type QueuedRun = {
  queue: string;
  key: string;
  data: Record<string, unknown>;
  /** How long to wait for the run before answering IN_PROGRESS (default 120 s). */
  waitMs?: number;
  pollMs?: number;
};

const OPEN_STATES = new Set(['created', 'retry', 'active']);

/**
 * @throws AppError IN_PROGRESS (with Retry-After) after waitMs; an Error when the run failed for good (a 500: the
 * job's own error is in the log and in GET /api/jobs).
 */
export async function runQueuedJob<T>(boss: PgBoss, run: QueuedRun): Promise<T> {
  const deadline = Date.now() + (run.waitMs ?? 120_000);
  for (;;) {
    const jobId = (await boss.send(run.queue, run.data, { singletonKey: run.key })) ?? (await findOpenJob(boss, run));
    if (!jobId) continue; // the run that blocked ours finished in between: queue it again
    for (;;) {
      if (Date.now() > deadline) {
        throw new AppError('IN_PROGRESS', 'The same run is still in progress; try again shortly', {
          retryAfterSeconds: 5,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, run.pollMs ?? 100));
      const [job] = await boss.findJobs<Record<string, unknown>>(run.queue, { id: jobId });
      if (!job) throw new Error(`job ${jobId} of ${run.queue} vanished`);
      if (job.state === 'completed') return job.output as T;
      if (job.state === 'failed' || job.state === 'cancelled')
        throw new Error(`${run.queue} run ${jobId} ${job.state}`);
    }
  }
}

async function findOpenJob(boss: PgBoss, run: QueuedRun): Promise<string | null> {
  const jobs = await boss.findJobs(run.queue, { key: run.key });
  return jobs.filter((job) => OPEN_STATES.has(job.state)).at(-1)?.id ?? null;
}
