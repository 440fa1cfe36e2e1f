// The evening pre-verification of one clinic's appointments of one day (DECISIONS "Recurring work"): every
// appointment of that clinic day goes through the roster (check-roster.ts: same scoping, PHI log, cache and
// batching as a staff roster run), each check recorded with source "schedule". Worked as a job of the
// "eligibility.pre-verification" queue, queued once per clinic and day by the 18:00 schedule (lib/schedules).
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db';
import type { JobHandler } from '../background/job-handler';
import type { Logger } from '../log';
import { clinicDayBounds } from '../time/clinic-day';
import { prepareRoster, RosterBody, type RosterSummary } from './check-roster';
import type { PayerTransport } from './payer-transport';
import { recordStatusChanges } from './record-status-changes';

export const PRE_VERIFICATION_QUEUE = 'eligibility.pre-verification';
/** The user id a scheduled check is recorded under (no person asked). */
export const SCHEDULE_USER_ID = 'schedule';
const ROSTER_CHUNK = 500;

export type PreVerificationDeps = {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'eligibilityCore'>;
  log?: Logger;
  /** The eligibility payer (built on first use: production without one fails the job, not start-up). */
  payer(): PayerTransport;
};
export type PreVerificationJobData = { clinicId: string; date: string; correlationId: string };

/** @returns the day's summary over every appointment (total = active + inactive + unknown + skipped). */
export async function preVerifyAppointments(
  deps: PreVerificationDeps,
  input: PreVerificationJobData & { signal?: AbortSignal },
): Promise<{ clinicId: string; date: string; summary: RosterSummary }> {
  const summary: RosterSummary = { total: 0, active: 0, inactive: 0, unknown: 0, skipped: 0 };
  const clinic = await deps.db.clinic.findUnique({
    where: { id: input.clinicId },
    select: { orgId: true, timeZone: true },
  });
  if (!clinic) return { clinicId: input.clinicId, date: input.date, summary };
  const { from, to } = clinicDayBounds(input.date, clinic.timeZone);
  const appointments = await deps.db.appointment.findMany({
    where: { clinicId: input.clinicId, start: { gte: from, lt: to } },
    orderBy: [{ start: 'asc' }, { id: 'asc' }],
    select: { patientId: true, start: true },
  });
  for (let i = 0; i < appointments.length; i += ROSTER_CHUNK) {
    const body = RosterBody.parse({
      appointments: appointments
        .slice(i, i + ROSTER_CHUNK)
        .map((a) => ({ patientId: a.patientId, start: a.start.toISOString() })),
    });
    const roster = await prepareRoster(
      { db: deps.db, clock: deps.clock, config: deps.config, payer: deps.payer(), log: deps.log },
      {
        clinicId: input.clinicId,
        orgId: clinic.orgId,
        userId: SCHEDULE_USER_ID,
        correlationId: input.correlationId,
        clinicTimeZone: clinic.timeZone,
        source: 'schedule',
      },
      body,
    );
    const run = await roster.run({ signal: input.signal });
    await recordStatusChanges(deps.db, { ...input, now: deps.clock(), results: run.results });
    for (const key of Object.keys(summary) as Array<keyof RosterSummary>) summary[key] += run.summary[key];
  }
  return { clinicId: input.clinicId, date: input.date, summary };
}

export function preVerificationHandler(deps: PreVerificationDeps): JobHandler<PreVerificationJobData> {
  return {
    queue: PRE_VERIFICATION_QUEUE,
    options: { retryLimit: 2, retryDelay: 60, retryBackoff: true, heartbeatSeconds: 30, expireInSeconds: 60 * 60 },
    run: (job) => preVerifyAppointments(deps, { ...job.data, signal: job.signal }),
  };
}
