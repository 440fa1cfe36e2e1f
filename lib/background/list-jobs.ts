// GET /api/jobs's domain (DECISIONS "Recurring work"): a clinic's own jobs (a job's clinic is the clinicId in its
// data, as the clinic's nightly reconciliation has; work for every clinic, such as a schedule's occurrence or the
// operator's reconcile call, carries none and is not listed), newest first, at most 100, each with
// its last error in words; and the schedules that concern the clinic (its time zone's, and the platform's), with
// their last and next run and how the last run ended (its state and error in words: a schedule failing every run
// must not look healthy). A zone's schedule runs for every clinic of the zone, so its error is written to name no
// clinic (the log names them). Dead-letter copies are not listed: the failed job itself is the dead letter shown.
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
  /** The last run's job state; null before a first run, or once its job is no longer kept. */
  lastRunState: z.enum(JOB_STATES).nullable(),
  /** Why the last run failed (or its last attempt, while it is retried), in words; null when it did not. */
  lastRunError: z.string().nullable(),
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
const LAST_RUNS = `SELECT id::text AS id, state::text AS state, output, created_on FROM pgboss.job WHERE id = ANY($1::uuid[])`;

type LastRun = { id: string; state: (typeof JOB_STATES)[number]; output: unknown; created_on: Date };

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
  const lastRuns = new Map(
    lastJobIds.length ? (await db.$queryRawUnsafe<LastRun[]>(LAST_RUNS, lastJobIds)).map((r) => [r.id, r]) : [],
  );
  const now = deps.clock();
  return {
    jobs,
    schedules: schedules
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((s) => {
        const last = s.lastJobId ? lastRuns.get(s.lastJobId) : undefined;
        return {
          name: s.name,
          cron: s.cron,
          timeZone: s.timezone,
          lastRunAt: last?.created_on.toISOString() ?? null,
          nextRunAt: boss.previewSchedule(s.cron, { tz: s.timezone, from: now, count: 1 })[0]?.toISOString() ?? null,
          lastRunState: last?.state ?? null,
          lastRunError: last ? describeJobError(last.state, last.output) : null,
        };
      }),
  };
}
