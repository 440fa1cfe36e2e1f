// GET /api/jobs's domain (DECISIONS "Recurring work"): a clinic's own jobs (a job's clinic is the clinicId in its
// data; platform work such as reconciliation carries none and is not listed), newest first, at most 100, each with
// its last error in words; and the schedules that concern the clinic (its time zone's, and the platform's), with
// their last and next run. Dead-letter copies are not listed: the failed job itself is the dead letter shown.
import type { PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { describeJobError } from './describe-job-error';

export const JOB_STATES = ['created', 'active', 'retry', 'completed', 'failed', 'cancelled'] as const;
const MAX_JOBS = 100;

export const JobView = z.object({
  id: z.string(),
  queue: z.string(),
  state: z.enum(JOB_STATES),
  /** Attempts started so far (retries included). */
  attempts: z.int(),
  /** Why the last attempt failed, in words (no stack, no SQL); null when none failed. */
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  startedAt: z.iso.datetime({ offset: true }).nullable(),
  completedAt: z.iso.datetime({ offset: true }).nullable(),
});
export const ScheduleView = z.object({
  name: z.string(),
  cron: z.string(),
  timeZone: z.string(),
  lastRunAt: z.iso.datetime({ offset: true }).nullable(),
  nextRunAt: z.iso.datetime({ offset: true }).nullable(),
});
export const JobList = z.object({ jobs: z.array(JobView), schedules: z.array(ScheduleView) });
export type JobList = z.infer<typeof JobList>;

type JobRow = {
  id: string;
  name: string;
  state: (typeof JOB_STATES)[number];
  retry_count: number;
  output: unknown;
  created_on: Date;
  started_on: Date | null;
  completed_on: Date | null;
};

const CLINIC_JOBS = `SELECT id::text AS id, name, state::text AS state, retry_count, output, created_on, started_on, completed_on
  FROM pgboss.job WHERE data->>'clinicId' = $1 AND name NOT LIKE '%.dead'
  ORDER BY created_on DESC, id LIMIT ${MAX_JOBS}`;
const JOB_CREATED = `SELECT id::text AS id, created_on FROM pgboss.job WHERE id = ANY($1::uuid[])`;

export async function listJobs(
  deps: { db: Db; clock: Clock; boss: PgBoss },
  input: { clinicId: string; scheduleNames: readonly string[] },
): Promise<JobList> {
  const { db, boss } = deps;
  const clinic = await db.clinic.findUniqueOrThrow({ where: { id: input.clinicId }, select: { timeZone: true } });
  const rows = await db.$queryRawUnsafe<JobRow[]>(CLINIC_JOBS, input.clinicId);
  const jobs = rows.map((row) => ({
    id: row.id,
    queue: row.name,
    state: row.state,
    attempts: row.started_on ? row.retry_count + 1 : row.retry_count,
    lastError: describeJobError(row.state, row.output),
    createdAt: row.created_on.toISOString(),
    startedAt: row.started_on?.toISOString() ?? null,
    completedAt: row.completed_on?.toISOString() ?? null,
  }));

  const schedules = (await boss.getSchedules()).filter(
    (s) => input.scheduleNames.includes(s.name) && (s.key === clinic.timeZone || s.key === 'UTC'),
  );
  const lastJobIds = schedules.map((s) => s.lastJobId).filter((id): id is string => Boolean(id));
  const created = new Map(
    lastJobIds.length
      ? (await db.$queryRawUnsafe<Array<{ id: string; created_on: Date }>>(JOB_CREATED, lastJobIds)).map((r) => [
          r.id,
          r.created_on,
        ])
      : [],
  );
  const now = deps.clock();
  return {
    jobs,
    schedules: schedules
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((s) => ({
        name: s.name,
        cron: s.cron,
        timeZone: s.timezone,
        lastRunAt: (s.lastJobId && created.get(s.lastJobId)?.toISOString()) || null,
        nextRunAt: boss.previewSchedule(s.cron, { tz: s.timezone, from: now, count: 1 })[0]?.toISOString() ?? null,
      })),
  };
}
