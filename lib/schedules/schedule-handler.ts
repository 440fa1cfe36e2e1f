// A schedule's queue as the job engine works it: an occurrence's job carries its time zone; the handler reads the
// clock when it runs (an occurrence late by a retry still counts from its own zone's calendar).
import { randomUUID } from 'node:crypto';
import type { JobHandler } from '../background/job-handler';
import type { Schedule, ScheduleDeps } from './schedules';

export type ScheduleJobData = { timeZone: string };

export function scheduleHandler(deps: ScheduleDeps, schedule: Schedule): JobHandler<ScheduleJobData> {
  return {
    queue: schedule.name,
    options: { retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 15 * 60 },
    run: (job) =>
      schedule.run(deps, {
        timeZone: job.data.timeZone,
        now: deps.clock(),
        correlationId: `schedule-${randomUUID()}`,
      }),
  };
}
