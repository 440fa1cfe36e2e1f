// The engine's vocabulary for the domain: a queue's handler (how its jobs are retried, kept alive and worked) and
// the error a handler throws so that what pg-boss stores, and GET /api/jobs shows, is words and nothing else.
import type { Queue } from 'pg-boss';

/** One job as a handler sees it. `signal` aborts when this worker's claim is gone (the job was taken over). */
export type BackgroundJob<D> = { id: string; data: D; retryCount: number; signal: AbortSignal };

export type JobHandler<D = Record<string, unknown>> = {
  queue: string;
  /** Retries (retryLimit, retryDelay, retryBackoff), heartbeatSeconds (takeover of a killed worker), policy. */
  options: Omit<Queue, 'name' | 'deadLetter'>;
  /** How often an idle worker looks for jobs (default 2 s). */
  pollingIntervalSeconds?: number;
  /** Does the work; its return value is the job's output. Throwing retries the job, then fails it (dead letter). */
  run(job: BackgroundJob<D>): Promise<unknown>;
  /**
   * Records in the domain that a job failed for good: its dead letter (queue `<queue>.dead`) is worked by this.
   * May run more than once for one job (a worker killed mid-way): make it idempotent.
   */
  onDead?(job: { id: string; data: D }): Promise<void>;
};

/** A failure whose message is safe to show an operator (no stack, SQL, payer text or PHI). */
export class JobFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JobFailure';
  }
}

export const deadLetterQueue = (queue: string) => `${queue}.dead`;
