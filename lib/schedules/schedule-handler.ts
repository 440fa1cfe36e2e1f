// A schedule's queue as the job engine works it: an occurrence's job carries its time zone and nothing else (a job
// pg-boss sends late, to catch up an occurrence missed during an outage, too). The handler works out the occurrence
// the job stands for, the cron's latest at or before now in that zone, so a late run (caught up, or retried) works
// for its own occurrence's day, never the clock's.
import { randomUUID } from 'node:crypto';
import type { JobHandler } from '../background/job-handler';
import { latestOccurrence } from './latest-occurrence';
import type { Schedule, ScheduleDeps } from './schedules';

export type ScheduleJobData = { timeZone: string };

export function scheduleHandler(deps: ScheduleDeps, schedule: Schedule): JobHandler<ScheduleJobData> {
  return {
    queue: schedule.name,
    options: { retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 15 * 60 },
    run: (job) => {
      const now = deps.clock();
      const { timeZone } = job.data;
      return schedule.run(deps, {
        timeZone,
        now,
        occurredAt: latestOccurrence(deps.boss, schedule.cron, timeZone, now) ?? now,
        correlationId: `schedule-${randomUUID()}`,
      });
    },
  };
}
