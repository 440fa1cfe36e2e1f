// The platform's recurring work (DECISIONS "Recurring work"), as a small registry: each entry is a pg-boss cron
// schedule. A `clinic` schedule is kept once per IANA time zone that any clinic has, counts its cron in that zone,
// and its job runs for that zone's clinics; a `platform` one runs once, in UTC. pg-boss sends each occurrence once
// across every instance (its cron pass is claimed by one instance, and the occurrence's job is a singleton of its
// minute); work a schedule fans out per clinic is keyed by clinic and day, so it is queued once even when an
// operator also fires the schedule. An occurrence that came due while no instance ran (an outage, a deploy) is
// caught up once, by the first cron pass after it (pg-boss `missed: 'once'`, sync-schedules.ts): however many
// occurrences were missed, the latest is run, late, for its own day (schedule-handler.ts).
//
// Claim status follow-up, ERA retrieval and the outbox's recovery talk to the clearinghouse; without one (production
// with no CLEARINGHOUSE_*) an occurrence says it skipped, and never calls out.
import type { PgBoss } from 'pg-boss';
import type { Db } from '../db';
import type { Clock } from '../clock';
import { createLogger, type Logger } from '../log';
import { JobFailure } from '../background/job-handler';
import { keyedJobId } from '../background/keyed-job-id';
import type { ClearinghouseTransport } from '../clearinghouse/clearinghouse-transport';
import { finishInterruptedSends } from '../claims/finish-interrupted-sends';
import { followUpClinics } from '../claims/follow-up-claim-status';
import { retrieveRemittances } from '../remittances/retrieve-remittances';
import { PRE_VERIFICATION_QUEUE, type PreVerificationJobData } from '../eligibility/pre-verify-appointments';
import { clinicReconcileKey, RECONCILE_QUEUE, type ReconcileJobData } from '../reconciliation/reconcile-day';
import { clinicDateOf, nextDate, previousDate } from '../time/clinic-day';
import type { ServiceMode } from '../config';
import { demoDaySchedule } from '../demo/demo-day-schedule';

export type ScheduleDeps = {
  db: Db;
  clock: Clock;
  boss: PgBoss;
  log?: Logger;
  /** The clearinghouse (live CORE, or the sandbox's in sandbox mode); null or absent when none is configured. */
  clearinghouse?: () => ClearinghouseTransport | null;
};
export type ScheduleInput = {
  timeZone: string;
  now: Date;
  /**
   * The cron occurrence this run stands for (schedule-handler.ts); later than it when the run was caught up after
   * an outage or retried. A schedule that works for a calendar day counts it from here. Absent: `now`.
   */
  occurredAt?: Date;
  correlationId: string;
};

export type Schedule = {
  /** The pg-boss queue each occurrence is sent to (one job per occurrence and time zone). */
  name: string;
  /** Five-field cron, read in the zone's local time (`clinic`) or in UTC (`platform`). */
  cron: string;
  scope: 'clinic' | 'platform';
  /** What one occurrence does; its return value is the job's output. */
  run(deps: ScheduleDeps, input: ScheduleInput): Promise<unknown>;
};

/**
 * 02:00 local: each clinic of the zone has its previous local day reconciled, midnight to midnight in its zone (a
 * run per clinic and day at a time: the reconcile queue is exclusive, keyed by clinic and day).
 */
const reconciliation: Schedule = {
  name: 'schedule.reconciliation',
  cron: '0 2 * * *',
  scope: 'clinic',
  async run({ db, boss }, { timeZone, now, occurredAt = now, correlationId }) {
    const day = previousDate(clinicDateOf(occurredAt, timeZone));
    const clinics = await db.clinic.findMany({ where: { timeZone }, select: { id: true }, orderBy: { id: 'asc' } });
    let queued = 0;
    for (const { id: clinicId } of clinics) {
      const data: ReconcileJobData = { clinicId, day, correlationId };
      if (await boss.send(RECONCILE_QUEUE, data, { singletonKey: clinicReconcileKey(clinicId, day) })) queued += 1;
    }
    return { day, clinics: clinics.length, queued };
  },
};

/** 18:00 local: every appointment of the next calendar day, a roster run per clinic (once per clinic and day). */
const preVerification: Schedule = {
  name: 'schedule.pre-verification',
  cron: '0 18 * * *',
  scope: 'clinic',
  async run({ db, boss }, { timeZone, now, occurredAt = now, correlationId }) {
    const date = nextDate(clinicDateOf(occurredAt, timeZone));
    const clinics = await db.clinic.findMany({ where: { timeZone }, select: { id: true }, orderBy: { id: 'asc' } });
    let queued = 0;
    for (const { id: clinicId } of clinics) {
      const data: PreVerificationJobData = { clinicId, date, correlationId };
      const id = keyedJobId(PRE_VERIFICATION_QUEUE, `${clinicId}:${date}`);
      if (await boss.send(PRE_VERIFICATION_QUEUE, data, { id })) queued += 1;
    }
    return { date, clinics: clinics.length, queued };
  },
};

/**
 * 07:00 local: a 276 for each claim accepted 14 or more days ago with no 835 (at most one per claim per 7 days). A
 * clinic that fails does not stop the others; the run then fails (and is retried) once every clinic had its turn.
 */
const claimStatusFollowUp: Schedule = {
  name: 'schedule.claim-status-follow-up',
  cron: '0 7 * * *',
  scope: 'clinic',
  async run(deps, { timeZone, now, correlationId }) {
    const clearinghouse = deps.clearinghouse?.() ?? null;
    if (!clearinghouse) return { skipped: 'no clearinghouse is configured' };
    const clinics = await deps.db.clinic.findMany({
      where: { timeZone },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    const { results, failedClinicIds } = await followUpClinics(
      { ...deps, clearinghouse },
      { clinicIds: clinics.map((clinic) => clinic.id), now, correlationId },
    );
    if (failedClinicIds.length) {
      deps.log?.error({ clinicIds: failedClinicIds, timeZone, correlationId }, 'claim status follow-up failed');
      // The run's error is shown to every clinic of the zone (GET /api/jobs): it names none of them.
      throw new JobFailure(
        `Claim status follow-up failed for ${failedClinicIds.length} of ${clinics.length} clinics of ${timeZone}; ` +
          `the others were followed up (the server log names the clinics under ${correlationId})`,
      );
    }
    return { clinics: results };
  },
};

/** Every hour, with a live clearinghouse only: the 835s waiting there, each posted once and then acknowledged. */
const eraRetrieval: Schedule = {
  name: 'schedule.era-retrieval',
  cron: '0 * * * *',
  scope: 'platform',
  async run(deps, { now, correlationId }) {
    const clearinghouse = deps.clearinghouse?.() ?? null;
    // The sandbox delivers its 835s itself (DECISIONS "Claims out"); there is nothing to fetch from it.
    if (clearinghouse?.mode !== 'live') return { skipped: 'no live clearinghouse is configured' };
    return retrieveRemittances({ ...deps, clearinghouse }, { now, correlationId });
  },
};

/**
 * Every 5 minutes: the outbox's recovery. A send left `sending` (a crash between the send and its answer, or a 999
 * not ready yet) gets its answer asked for by its own submission id; nothing is ever sent again.
 */
const claimSendRecovery: Schedule = {
  name: 'schedule.claim-send-recovery',
  cron: '*/5 * * * *',
  scope: 'platform',
  async run(deps, { correlationId }) {
    const clearinghouse = deps.clearinghouse?.() ?? null;
    if (!clearinghouse) return { skipped: 'no clearinghouse is configured' };
    return finishInterruptedSends(
      { ...deps, log: deps.log ?? createLogger('silent'), clearinghouse },
      { correlationId },
    );
  },
};

export const SCHEDULES: readonly Schedule[] = [
  reconciliation,
  preVerification,
  claimStatusFollowUp,
  eraRetrieval,
  claimSendRecovery,
];

/** The schedules a deployment keeps: the ruled five, and in sandbox the demo tenant's rolling day too. */
export function schedulesFor(mode: ServiceMode): readonly Schedule[] {
  return mode === 'sandbox' ? [...SCHEDULES, demoDaySchedule] : SCHEDULES;
}
