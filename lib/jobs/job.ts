// The job engine's vocabulary: a Job row (prisma model Job), a queue's handler, and the error a worker sees when
// its claim on a job is gone. The engine itself is enqueue-job, claim-next-job, job-lease, work-next-job,
// start-job-worker and run-keyed-job; list-jobs gives visibility.
import type { Clock } from '../clock';
import type { Db, Prisma } from '../db';
import type { Logger } from '../log';
import type { JobLease } from './job-lease';

export type Job = NonNullable<Awaited<ReturnType<Db['job']['findUnique']>>>;
export type JobState = 'queued' | 'running' | 'completed' | 'dead';
export type Tx = Prisma.TransactionClient;

export type JobEngineDeps = { db: Db; clock: Clock; log?: Logger };

/** Why a job was dead-lettered: its workers kept dying mid-run, or its handler kept throwing. */
export type DeadCause = 'abandoned' | 'failed';

/** How one queue's jobs are worked. */
export type JobHandler = {
  queue: string;
  /**
   * How long a claim lasts without a heartbeat. The worker renews it every third of that while it lives, so a
   * killed worker's job is claimable again this long after its last heartbeat.
   */
  leaseMs: number;
  /** First retry after this long, doubling per attempt. */
  backoffMs: number;
  /**
   * Does the work. Returning completes the job; throwing retries it (after backoff) until maxAttempts, then
   * dead-letters it. Call lease.assertHeld() between steps, and write results with lease.complete(write) so they
   * land only while the claim is still ours.
   */
  run(job: Job, lease: JobLease): Promise<void>;
  /** Records a dead-lettered job's failure in the domain, in the transaction that buries it. */
  onDead?(tx: Tx, job: Job, cause: DeadCause): Promise<void>;
};

/** The job was cancelled, finished or claimed by another worker after our lease lapsed: write nothing more. */
export class LeaseLost extends Error {
  constructor(jobId: string) {
    super(`lease on job ${jobId} is no longer held`);
  }
}
