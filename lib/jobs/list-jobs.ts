// Visibility: jobs with their state, newest first (what is queued, who holds what, what was dead-lettered and
// why). lastError holds only an error's class and first line, never upstream bodies.
import type { Db } from '../db';
import type { JobState } from './job';

export type JobSummary = {
  id: string;
  queue: string;
  key: string | null;
  state: string;
  attempts: number;
  maxAttempts: number;
  runAfter: Date;
  leaseUntil: Date | null;
  lockedBy: string | null;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
};

export async function listJobs(
  db: Db,
  filter: { queue?: string; state?: JobState; limit?: number } = {},
): Promise<JobSummary[]> {
  return db.job.findMany({
    where: { ...(filter.queue && { queue: filter.queue }), ...(filter.state && { state: filter.state }) },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: Math.min(filter.limit ?? 100, 1000),
    select: {
      id: true,
      queue: true,
      key: true,
      state: true,
      attempts: true,
      maxAttempts: true,
      runAfter: true,
      leaseUntil: true,
      lockedBy: true,
      lastError: true,
      createdAt: true,
      finishedAt: true,
    },
  });
}
