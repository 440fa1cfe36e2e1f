// Keeps pg-boss's schedules in step with the registry and the clinics: a `clinic` schedule exists once per time zone
// some clinic has (key = the zone, tz = the zone), and a zone no clinic has any more loses its schedule. Called at
// worker start and then every few minutes, so a clinic in a new zone is scheduled without a restart. Idempotent, so
// any number of workers may run it. Each is kept with `missed: 'once'`: the latest occurrence that came due while no
// instance ran the cron (all workers down, a deploy) is sent by the first pass after it, not skipped (pg-boss's
// default). Earlier occurrences of the same outage are not (pg-boss gives a caught-up job no identity of its own); an
// operator reconciles such days with POST /api/jobs/reconcile (docs/operations.md).
import type { PgBoss } from 'pg-boss';
import type { Db } from '../db';
import type { Schedule } from './schedules';
import type { ScheduleJobData } from './schedule-handler';

export const PLATFORM_SCHEDULE_KEY = 'UTC';

export async function syncSchedules(boss: PgBoss, db: Db, schedules: readonly Schedule[]): Promise<void> {
  const zones = (await db.clinic.findMany({ distinct: ['timeZone'], select: { timeZone: true } })).map(
    (c) => c.timeZone,
  );
  for (const schedule of schedules) {
    const keys = schedule.scope === 'clinic' ? zones : [PLATFORM_SCHEDULE_KEY];
    for (const timeZone of keys) {
      const data: ScheduleJobData = { timeZone };
      await boss.schedule(schedule.name, schedule.cron, data, { tz: timeZone, key: timeZone, missed: 'once' });
    }
    for (const existing of await boss.getSchedules(schedule.name)) {
      if (!keys.includes(existing.key)) await boss.unschedule(schedule.name, existing.key);
    }
  }
}
