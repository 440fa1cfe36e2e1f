// POST /api/eligibility/roster's domain: a day's appointments checked through a capped pool. Owns the batch
// rules of SPEC and DECISIONS (whole batch scoped first, member and payer defaults, skips, order, summary) and
// the guarantee that a lookup failing in any way is `unknown`, never `active`. One check is check-eligibility.ts's.
import pLimit from 'p-limit';
import { z } from 'zod';
import { isAppError } from '../errors';
import type { Logger } from '../log';
import type { ClinicPatient } from '../patients/require-clinic-patients';
import {
  askEligibility,
  unansweredFields,
  type CheckSource,
  type EligibilityDeps,
  type EligibilityInquiry,
  type NotRead,
} from './check-eligibility';
import { compareCoverage } from './coverage-on-file';
import { batchCheckStore, type BatchCheckStore, type EligibilityCheckStore } from './eligibility-check-store';
import { EligibilityFields } from './eligibility-result';
import { findPayerName } from './payer-directory';
import { MemberId, Npi, PayerId, ServiceTypeCode, x12Text } from './x12-fields';
import { clinicDateOf } from '../time/clinic-day';
import { findRecentChecks, type RecentCheck } from './find-recent-checks';
import { openRoster } from './open-roster';

const MAX_ROSTER_SIZE = 500;
const MAX_CONCURRENCY = 20;
const DEFAULT_CONCURRENCY = 5;

const RosterAppointment = z.object({
  patientId: z.string({ error: 'patientId is required' }).trim().min(1, { error: 'patientId is required' }).max(100),
  memberId: MemberId.optional(),
  payerId: PayerId.optional(),
  /** ISO-8601 with an offset; its day in the clinic's time zone is the date of service (the clinic's today when absent). */
  start: z.iso.datetime({ offset: true, error: 'start must be an ISO-8601 timestamp' }).optional(),
});

export const RosterBody = z.object({
  appointments: z
    .array(RosterAppointment, { error: 'appointments must be a list' })
    .min(1, { error: 'appointments must not be empty' })
    .max(MAX_ROSTER_SIZE, { error: `at most ${MAX_ROSTER_SIZE} appointments per roster` }),
  provider: z.object({ npi: Npi, name: x12Text('provider.name', 60).optional() }).optional(),
  defaultPayerId: PayerId.optional(),
  serviceTypeCodes: z
    .array(ServiceTypeCode)
    .min(1, { error: 'serviceTypeCodes must not be empty' })
    .max(20)
    .default(['30']),
  concurrency: z
    .int({ error: `concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}` })
    .min(1, { error: `concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}` })
    .max(MAX_CONCURRENCY, { error: `concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}` })
    .default(DEFAULT_CONCURRENCY),
});
export type RosterBody = z.infer<typeof RosterBody>;

const SkipReason = z.enum(['NO_MEMBER_ID', 'NO_PAYER_ID']);

export const RosterResult = z.object({
  appointment: z.object({ patientId: z.string(), start: z.string().nullable() }),
  skipped: z.boolean(),
  /** Why the appointment was not checked (present when skipped). */
  skipReason: SkipReason.optional(),
  /** The parsed eligibility fields (status, network and the rest); absent when skipped. */
  result: EligibilityFields.optional(),
  /**
   * Whether the status, network or prior-auth flag differs from the patient's check before this answer (false
   * when there is none); absent when skipped. An answer served from an earlier check compares that check with the
   * one before it, so the morning after the evening pre-verification still shows what the evening found.
   */
  changedSinceLastCheck: z.boolean().optional(),
});
export type RosterResult = z.infer<typeof RosterResult>;

export const RosterSummary = z.object({
  total: z.int(),
  active: z.int(),
  inactive: z.int(),
  unknown: z.int(),
  skipped: z.int(),
});
export type RosterSummary = z.infer<typeof RosterSummary>;

export const RosterResponse = z.object({ summary: RosterSummary, results: z.array(RosterResult) });
export type RosterResponse = z.infer<typeof RosterResponse>;

/** One NDJSON line per finished appointment (any order), then one summary line. */
export const RosterProgressLine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), index: z.int() }).extend(RosterResult.shape),
  z.object({ type: z.literal('summary'), summary: RosterSummary }),
]);

export type RosterContext = {
  clinicId: string;
  orgId: string;
  userId: string;
  correlationId: string;
  /** The clinic's IANA zone (from the session check): a date of service is the clinic's calendar day. */
  clinicTimeZone: string;
  /** Recorded on every check row: staff (the route, the default) or schedule (the evening pre-verification). */
  source?: CheckSource;
};

export type RosterRun = {
  /** Runs every lookup (at most `concurrency` in flight); `onResult` sees each as it finishes. */
  run(options?: {
    onResult?: (index: number, result: RosterResult) => void;
    signal?: AbortSignal;
  }): Promise<RosterResponse>;
};

// Reasons for `unknown` when no 271 was read at all.
const TRANSPORT_FAILED: NotRead = {
  reasonCode: 'TRANSPORT_FAILED',
  followUpCode: null,
  reason: 'The payer could not be reached',
  followUp: 'Check this patient again later, or confirm coverage with the payer by phone',
};
const NOT_SENDABLE: NotRead = {
  reasonCode: 'INVALID_REQUEST',
  followUpCode: null,
  reason: "The patient's record holds characters or values an eligibility request cannot carry",
  followUp: "Correct the patient's name, date of birth or member id, then check again",
};
const INTERNAL: NotRead = {
  reasonCode: 'INTERNAL_ERROR',
  followUpCode: null,
  reason: 'The check failed on our side',
  followUp: 'Check this patient again; if it keeps failing, contact support with the correlation id',
};
const CANCELLED: NotRead = {
  reasonCode: 'CANCELLED',
  followUpCode: null,
  reason: 'The roster check was stopped before this patient was checked',
  followUp: 'Run the check again',
};

/** What prepareRoster settled before any payer call; a run is planned and looked up from it alone. */
type RosterPlan = {
  deps: EligibilityDeps & { log?: Logger };
  context: RosterContext;
  body: RosterBody;
  patients: Map<string, ClinicPatient>;
  provider: { npi: string; name: string };
  /** Each patient's newest checks before this run, newest first (changedSinceLastCheck). */
  recent: Map<string, RecentCheck[]>;
};

type RunOptions = NonNullable<Parameters<RosterRun['run']>[0]>;

/** The appointment as a result repeats it. */
type Echo = RosterResult['appointment'];

/** One appointment of a run: skipped for a reason, or the inquiry to send. */
type PlannedLookup = { index: number; echo: Echo } & (
  { skip: z.infer<typeof SkipReason> } | { inquiry: EligibilityInquiry }
);

/** An answer, the write of its row, and what to report instead if that write fails. */
type Asked = { result: RosterResult; recorded: Promise<void>; fallback: RosterResult };

/**
 * Validates the whole batch before any payer call (the route's requirePayer has refused an unconfigured transport
 * already): OUT_OF_SCOPE when any patient is not this clinic's, VALIDATION_FAILED when no provider NPI is known. Logs
 * PHI access for every patient, then returns the run. A lookup that fails in any way becomes `unknown`.
 */
export async function prepareRoster(
  deps: EligibilityDeps & { log?: Logger },
  context: RosterContext,
  body: RosterBody,
): Promise<RosterRun> {
  const now = deps.clock();
  const patientIds = body.appointments.map((a) => a.patientId);
  // Three statements at once; nothing leaves the building until the scope check passed and the PHI log is
  // written, both in openRoster's one statement with the clinic's provider and the patients. The cache and the
  // recent checks read only this clinic's rows by the patient ids; nothing of them is used unless the batch passes.
  const { orgId, clinicId, userId, correlationId } = context;
  const access = { orgId, clinicId, userId, correlationId, purpose: 'eligibility.roster' };
  const opening = openRoster(deps.db, access, patientIds, body.provider, now);
  const caching = batchCheckStore(deps.db, { clinicId, mode: deps.payer.mode, now, patientIds });
  const recalling = findRecentChecks(deps.db, clinicId, patientIds);
  // Whichever of them refuses first, the others' refusals are handled (awaited or dropped), never unhandled.
  caching.catch(() => undefined);
  recalling.catch(() => undefined);
  const { provider, patients } = await opening;

  const plan: RosterPlan = {
    deps: { db: deps.db, clock: deps.clock, payer: deps.payer, config: deps.config, log: deps.log },
    context,
    body,
    patients,
    provider,
    recent: await recalling,
  };
  const dayOf = clinicDays(context.clinicTimeZone, now);
  const planned = body.appointments.map((appointment, index) => planLookup(plan, appointment, index, dayOf));
  const store = await caching;
  return { run: (options) => runRoster(plan, planned, store, options) };
}

async function runRoster(
  plan: RosterPlan,
  planned: readonly PlannedLookup[],
  store: BatchCheckStore,
  { onResult, signal }: RunOptions = {},
): Promise<RosterResponse> {
  // The pool caps lookups in flight to the payer; writing a row and reporting the result happen outside
  // it, so a slot starts the next 270 while the previous answer is being recorded.
  const limit = pLimit(plan.body.concurrency);
  // Once no lookup waits for a slot, no later round will share a statement with the rows waiting for company:
  // each row is then written as its answer comes, so the last answer waits for its own row alone, not for the
  // whole round's (4-16 ms, bench roster).
  let asking = planned.filter((p) => 'inquiry' in p).length;
  const results = await Promise.all(
    planned.map(async (p) => {
      const result =
        'inquiry' in p
          ? markChange(
              await limit(() => lookUp(plan, store, p.echo, p.inquiry, signal))
                .finally(() => {
                  if (--asking < plan.body.concurrency) store.flush();
                })
                .then(settle),
              plan.recent.get(p.inquiry.patientId) ?? [],
            )
          : { appointment: p.echo, skipped: true, skipReason: p.skip };
      onResult?.(p.index, result);
      return result;
    }),
  );
  return { summary: summarize(results), results };
}

/**
 * The clinic's calendar day of an appointment's start (a 17:00 visit in Los Angeles is 01:00 UTC the next day), and
 * the clinic's today for one without a start. A day's roster shares a few dozen starts, so each is worked out once
 * (a time zone's calendar day costs microseconds, hundreds of times over).
 */
function clinicDays(timeZone: string, now: Date): (start: string | undefined) => string {
  const days = new Map<string | undefined, string>();
  return (start) => {
    let day = days.get(start);
    if (day === undefined) days.set(start, (day = clinicDateOf(start ? new Date(start) : now, timeZone)));
    return day;
  };
}

function planLookup(
  plan: RosterPlan,
  appointment: RosterBody['appointments'][number],
  index: number,
  dayOf: (start: string | undefined) => string,
): PlannedLookup {
  const { context, body, patients, provider } = plan;
  const patient = patients.get(appointment.patientId)!;
  const echo = { patientId: appointment.patientId, start: appointment.start ?? null };
  const memberId = appointment.memberId ?? patient.coverageMemberId;
  // The item's payer, then the coverage on file, then the batch default (DECISIONS).
  const payerId = appointment.payerId ?? patient.coveragePayerId ?? body.defaultPayerId;
  if (!memberId) return { index, echo, skip: 'NO_MEMBER_ID' };
  if (!payerId) return { index, echo, skip: 'NO_PAYER_ID' };
  return {
    index,
    echo,
    inquiry: {
      clinicId: context.clinicId,
      userId: context.userId,
      source: context.source ?? 'staff',
      patientId: patient.id,
      correlationId: context.correlationId,
      payer: { id: payerId, name: payerNameFor(payerId, patient) },
      provider,
      // Names and date of birth come from the clinic's record, never from the request.
      subscriber: { memberId, firstName: patient.firstName, lastName: patient.lastName, birthDate: patient.birthDate },
      serviceTypeCodes: body.serviceTypeCodes,
      coverage: { memberId: patient.coverageMemberId, payerId: patient.coveragePayerId },
      dateOfService: dayOf(appointment.start),
    },
  };
}

async function lookUp(
  plan: RosterPlan,
  store: EligibilityCheckStore,
  echo: Echo,
  inquiry: EligibilityInquiry,
  signal: AbortSignal | undefined,
): Promise<Asked> {
  const unanswered = (reason: NotRead) => unansweredResult(plan, echo, inquiry, reason);
  const done = (result: RosterResult): Asked => ({ result, recorded: Promise.resolve(), fallback: result });
  if (signal?.aborted) return done(unanswered(CANCELLED));
  try {
    const { outcome, recorded } = await askEligibility(plan.deps, inquiry, store);
    // Handled here at once, so a failed write is never an unhandled rejection while the pool runs on.
    const settled = recorded.catch((error: unknown) => {
      logFailure(plan, error);
      throw error;
    });
    settled.catch(() => undefined);
    const result = { appointment: echo, skipped: false, result: outcome.fields };
    return { result, recorded: settled, fallback: unanswered(INTERNAL) };
  } catch (error) {
    // Whatever went wrong, this appointment is unknown: never active, never the whole batch failing.
    if (isAppError(error) && error.code === 'TRANSPORT_FAILED') return done(unanswered(TRANSPORT_FAILED));
    if (isAppError(error) && error.code === 'VALIDATION_FAILED') return done(unanswered(NOT_SENDABLE));
    logFailure(plan, error);
    return done(unanswered(INTERNAL));
  }
}

function unansweredResult(plan: RosterPlan, echo: Echo, inquiry: EligibilityInquiry, reason: NotRead): RosterResult {
  const asked = { memberId: inquiry.subscriber.memberId, payerId: inquiry.payer.id };
  return {
    appointment: echo,
    skipped: false,
    result: unansweredFields(
      {
        mode: plan.deps.payer.mode,
        payerId: asked.payerId,
        memberId: asked.memberId,
        verifiedAt: plan.deps.clock(),
        coverageOnFile: compareCoverage(asked, inquiry.coverage),
      },
      reason,
    ),
  };
}

/** An answer whose row could not be written is reported as unknown: the check is not on record. */
async function settle(asked: Asked): Promise<RosterResult> {
  try {
    await asked.recorded;
    return asked.result;
  } catch {
    return asked.fallback;
  }
}

function logFailure(plan: RosterPlan, error: unknown) {
  const err = error instanceof Error ? { name: error.name, message: error.message } : String(error);
  plan.deps.log?.error({ err }, 'roster lookup failed');
}

function payerNameFor(payerId: string, patient: ClinicPatient): string {
  if (patient.coveragePayerId === payerId && patient.coveragePayerName) return patient.coveragePayerName;
  return findPayerName(payerId) ?? payerId;
}

/** Compares an answer with the patient's check before it (the newest one older than the answer's own time). */
function markChange(result: RosterResult, recent: readonly RecentCheck[]): RosterResult {
  const fields = result.result;
  if (!fields) return result;
  const answeredAt = new Date(fields.verifiedAt).getTime();
  const before = recent.find((check) => check.createdAt.getTime() < answeredAt);
  const changedSinceLastCheck =
    before !== undefined &&
    (before.status !== fields.status ||
      before.network !== fields.network ||
      before.priorAuthRequired !== fields.priorAuthRequired);
  return { ...result, changedSinceLastCheck };
}

/** total = active + inactive + unknown + skipped = the number of appointments (DECISIONS). */
function summarize(results: readonly RosterResult[]): RosterSummary {
  const summary: RosterSummary = { total: results.length, active: 0, inactive: 0, unknown: 0, skipped: 0 };
  for (const r of results) {
    if (r.skipped || !r.result) summary.skipped += 1;
    else summary[r.result.status] += 1;
  }
  return summary;
}
