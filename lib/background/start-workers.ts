// Declares every queue on the process's engine (every role sends jobs, so every role needs them to exist) and, in
// the roles that work jobs, starts a worker per queue and per dead-letter queue. A handler's error is logged in full
// and stored as words only (JobFailure), so GET /api/jobs never shows a stack or SQL.
import type { PgBoss } from 'pg-boss';
import { isAppError } from '../errors';
import type { Logger } from '../log';
import { deadLetterQueue, JobFailure, type BackgroundJob, type JobHandler } from './job-handler';

/** Dead letters are few and not urgent. */
const DEAD_LETTER_POLLING_SECONDS = 5;

/**
 * Creates each queue (and its dead-letter queue) when missing, and brings an existing one's retry, expiry and
 * heartbeat options up to the handler's (createQueue leaves an existing queue as it is; a policy cannot change).
 */
export async function declareQueues(boss: PgBoss, handlers: readonly JobHandler[]): Promise<void> {
  for (const handler of handlers) {
    if (handler.onDead) await boss.createQueue(deadLetterQueue(handler.queue), { retryLimit: 5, retryBackoff: true });
    const options = { ...handler.options, ...(handler.onDead && { deadLetter: deadLetterQueue(handler.queue) }) };
    await boss.createQueue(handler.queue, options);
    const { policy: _policy, ...changeable } = options;
    if (Object.keys(changeable).length) await boss.updateQueue(handler.queue, changeable);
  }
}

export async function startWorkers(boss: PgBoss, handlers: readonly JobHandler[], log: Logger): Promise<void> {
  for (const handler of handlers) {
    await boss.work<Record<string, unknown>>(
      handler.queue,
      { batchSize: 1, pollingIntervalSeconds: handler.pollingIntervalSeconds ?? 2 },
      async ([job]) => (job ? runJob(handler, job, log) : undefined),
    );
    const onDead = handler.onDead;
    if (onDead) {
      await boss.work<Record<string, unknown>>(
        deadLetterQueue(handler.queue),
        { batchSize: 1, pollingIntervalSeconds: DEAD_LETTER_POLLING_SECONDS },
        async ([job]) => {
          if (!job) return;
          await onDead({ id: job.id, data: job.data });
          log.warn({ jobId: job.id, queue: handler.queue }, 'job dead-lettered');
        },
      );
    }
  }
}

async function runJob(handler: JobHandler, job: BackgroundJob<Record<string, unknown>>, log: Logger) {
  const correlationId = typeof job.data.correlationId === 'string' ? job.data.correlationId : undefined;
  const jobLog = log.child({ jobId: job.id, queue: handler.queue, correlationId });
  try {
    return await handler.run(job);
  } catch (error) {
    jobLog.error(
      { attempt: job.retryCount + 1, err: error instanceof Error ? `${error.name}: ${error.message}` : String(error) },
      'job attempt failed',
    );
    if (error instanceof JobFailure) throw error;
    // AppError messages are written for clients already; anything else is a bug whose text is not for the screen.
    throw new JobFailure(
      isAppError(error)
        ? error.message
        : 'It failed with an unexpected error (the server log has the details under this job id)',
    );
  }
}
