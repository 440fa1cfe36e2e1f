// The platform's recurring work (DECISIONS "Recurring work"), as a small registry: each entry is a pg-boss cron
// schedule. A `clinic` schedule is kept once per IANA time zone that any clinic has, counts its cron in that zone,
// and its job runs for that zone's clinics; a `platform` one runs once, in UTC. pg-boss sends each occurrence once
// across every instance (its cron pass is claimed by one instance, and the occurrence's job is a singleton of its
// minute); work a schedule fans out per clinic is keyed by clinic and day, so it is queued once even when an
// operator also fires the schedule.
//
// Still to wire once their domain functions land (each its own queue name, same shape as below):
// - `schedule.claim-status-follow-up`: cron `0 7 * * *`, scope clinic: followUpClaimStatus(deps, { clinicId, now })
//   for each clinic of the zone;
// - `schedule.era-retrieval`: cron `0 * * * *`, scope platform, only when CLEARINGHOUSE_* is set:
//   retrieveRemittances(deps, { now });
// - finishInterruptedSends(deps) is recovery rather than a calendar: a `platform` entry every few minutes
//   (`*/5 * * * *`), or a call at worker start.
import type { PgBoss } from 'pg-boss';
import type { Db } from '../db';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import { keyedJobId } from '../background/keyed-job-id';
import { PRE_VERIFICATION_QUEUE, type PreVerificationJobData } from '../eligibility/pre-verify-appointments';
import { RECONCILE_QUEUE } from '../reconciliation/reconcile-day';
import { clinicDateOf, nextDate, previousDate } from '../time/clinic-day';

export type ScheduleDeps = { db: Db; clock: Clock; boss: PgBoss; log?: Logger };
export type ScheduleInput = { timeZone: string; now: Date; correlationId: string };

export type Schedule = {
  /** The pg-boss queue each occurrence is sent to (one job per occurrence and time zone). */
  name: string;
  /** Five-field cron, read in the zone's local time (`clinic`) or in UTC (`platform`). */
  cron: string;
  scope: 'clinic' | 'platform';
  /** What one occurrence does; its return value is the job's output. */
  run(deps: ScheduleDeps, input: ScheduleInput): Promise<unknown>;
};

/** 02:00 local: the previous local day is reconciled (one run per day at a time: the reconcile queue is exclusive). */
const reconciliation: Schedule = {
  name: 'schedule.reconciliation',
  cron: '0 2 * * *',
  scope: 'clinic',
  async run({ boss }, { timeZone, now, correlationId }) {
    const day = previousDate(clinicDateOf(now, timeZone));
    const jobId = await boss.send(RECONCILE_QUEUE, { day, correlationId }, { singletonKey: day });
    return { day, queued: jobId !== null };
  },
};

/** 18:00 local: every appointment of the next calendar day, a roster run per clinic (once per clinic and day). */
const preVerification: Schedule = {
  name: 'schedule.pre-verification',
  cron: '0 18 * * *',
  scope: 'clinic',
  async run({ db, boss }, { timeZone, now, correlationId }) {
    const date = nextDate(clinicDateOf(now, timeZone));
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

export const SCHEDULES: readonly Schedule[] = [reconciliation, preVerification];
