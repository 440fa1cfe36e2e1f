// A worker's claim on one job, kept alive by a heartbeat: every third of the lease the lease is renewed, on the
// condition that the token is still ours and the job still running. A renewal that finds neither marks the lease
// lost (the job was cancelled, or another worker claimed it after a stall), and assertHeld() then stops the work.
// A worker that dies stops renewing, so its job is claimable one lease after its last heartbeat.
import type { Clock } from '../clock';
import type { Db } from '../db';
import type { Logger } from '../log';
import { LeaseLost, type Job, type Tx } from './job';

export type JobLease = {
  /** @throws LeaseLost once a heartbeat found the claim gone. */
  assertHeld(): void;
  /**
   * Completes the job and runs `write` in the same transaction, only while the claim is ours; the job's result
   * is stored for list-jobs and run-keyed-job's waiters. @throws LeaseLost, and then `write` has not run.
   */
  complete(write?: (tx: Tx) => Promise<void>, result?: unknown): Promise<void>;
  readonly completed: boolean;
  /** Stops the heartbeat (the engine calls it when the handler returns). */
  stop(): void;
};

export function holdJobLease(deps: { db: Db; clock: Clock; log?: Logger }, job: Job, leaseMs: number): JobLease {
  const { db, clock } = deps;
  const token = job.leaseToken;
  let lost = false;
  let completed = false;
  const heldWhere = { id: job.id, leaseToken: token, state: 'running' };

  const beat = async () => {
    try {
      const { count } = await db.job.updateMany({
        where: heldWhere,
        data: { leaseUntil: new Date(clock().getTime() + leaseMs) },
      });
      if (count !== 1) lost = true;
    } catch (error) {
      // A failed heartbeat is not a lost lease: the next one may succeed before the lease lapses.
      deps.log?.warn({ jobId: job.id, err: String(error) }, 'job heartbeat failed');
    }
  };
  const timer = setInterval(() => void beat(), Math.max(50, Math.floor(leaseMs / 3)));
  timer.unref();

  return {
    assertHeld() {
      if (lost) throw new LeaseLost(job.id);
    },
    async complete(write, result) {
      if (lost) throw new LeaseLost(job.id);
      await db.$transaction(
        async (tx) => {
          const now = clock();
          const { count } = await tx.job.updateMany({
            where: heldWhere,
            data: {
              state: 'completed',
              finishedAt: now,
              leaseToken: null,
              leaseUntil: null,
              lastError: null,
              ...(result !== undefined && { result: result as object }),
            },
          });
          if (count !== 1) throw new LeaseLost(job.id);
          if (write) await write(tx);
        },
        { maxWait: 10_000, timeout: 60_000 },
      );
      completed = true;
      clearInterval(timer);
    },
    get completed() {
      return completed;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
