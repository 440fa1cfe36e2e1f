// Claim status follow-up (DECISIONS "Recurring work"): a claim the payer accepted 14 or more days ago that no 835 has
// answered is asked about with one 276, at most once per claim per 7 days. The 276 goes through the one status path
// (claim-status.ts: build-276, the clearinghouse transport, the 277 kept on the claim's transmissions). When each
// claim was asked is recorded in ClaimStatusFollowUp before the 276 goes out, by a single conditional statement, so
// two runs racing each other ask once; a 276 that could not be sent gives its slot back. No database transaction is
// open while the clearinghouse answers. The schedule (07:00 in each clinic's zone) belongs to the job engine; the
// operator route POST /api/jobs/claim-status-follow-up runs it by hand.
import { z } from 'zod';
import type { Deps } from '../deps';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/is-unique-violation';
import { isAppError } from '../errors';
import type { Logger } from '../log';
import type { ClearinghouseTransport } from '../clearinghouse/clearinghouse-transport';
import { getClaimStatus } from './claim-status';

const DAY_MS = 86_400_000;
/** A claim accepted this long ago without an 835 has gone quiet. */
const QUIET_AFTER_DAYS = 14;
/** The same claim is asked about again at most this often. */
const ASK_AGAIN_AFTER_DAYS = 7;
/** Claims asked about in one run of one clinic; the rest wait for the next run. */
const MAX_PER_RUN = 500;

export const FollowUpQuery = z.object({
  /** One clinic; absent, every clinic. */
  clinicId: z.string().min(1).max(100).optional(),
});

export const FollowUpResult = z.object({
  clinicId: z.string(),
  /** Claims a 276 was sent for, with the status the claim has after its 277. */
  asked: z.array(z.object({ claimId: z.string(), status: z.string() })),
  /** Claims whose 276 could not be sent or read (asked again on the next run). */
  failed: z.array(z.object({ claimId: z.string(), code: z.string(), message: z.string() })),
});
export type FollowUpResult = z.infer<typeof FollowUpResult>;

export const FollowUpRun = z.object({ clinics: z.array(FollowUpResult), correlationId: z.string() });

type FollowUpDeps = Pick<Deps, 'db' | 'clock'> & { clearinghouse: ClearinghouseTransport; log?: Logger };

/** One 276 for each quiet accepted claim of the clinic not asked about in the last 7 days. */
export async function followUpClaimStatus(
  deps: FollowUpDeps,
  input: { clinicId: string; now: Date; correlationId?: string },
): Promise<FollowUpResult> {
  const correlationId = input.correlationId ?? `claim-status-follow-up-${input.now.toISOString()}`;
  const result: FollowUpResult = { clinicId: input.clinicId, asked: [], failed: [] };
  for (const claimId of await quietClaims(deps.db, input.clinicId, input.now)) {
    const slot = await takeSlot(deps.db, { clinicId: input.clinicId, claimId, now: input.now });
    if (!slot.taken) continue;
    try {
      const view = await getClaimStatus(deps, { clinicId: input.clinicId, claimId, refresh: true, correlationId });
      result.asked.push({ claimId, status: view.status });
    } catch (error) {
      await giveSlotBack(deps.db, { claimId, takenAt: input.now, previous: slot.previous });
      if (!isAppError(error)) throw error;
      deps.log?.warn({ claimId, code: error.code, cause: String(error.cause ?? '') }, 'claim status follow-up failed');
      result.failed.push({ claimId, code: error.code, message: error.message });
    }
  }
  return result;
}

/** The operator route's run: every clinic (or the one named), each with its own result. */
export async function followUpEveryClinic(
  deps: FollowUpDeps,
  input: { clinicId?: string; correlationId: string },
): Promise<z.infer<typeof FollowUpRun>> {
  const now = deps.clock();
  const clinics = await deps.db.clinic.findMany({
    where: input.clinicId ? { id: input.clinicId } : {},
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  const { results, failedClinicIds } = await followUpClinics(deps, {
    clinicIds: clinics.map((clinic) => clinic.id),
    now,
    correlationId: input.correlationId,
  });
  if (failedClinicIds.length) throw new Error(`claim status follow-up failed for ${failedClinicIds.join(', ')}`);
  return { clinics: results, correlationId: input.correlationId };
}

/**
 * Each clinic in turn: one clinic's unexpected failure (not an AppError: those are per claim, in its `failed`) is
 * logged and the next clinic is still followed up. The caller fails its run with `failedClinicIds` once every
 * clinic has had its turn.
 */
export async function followUpClinics(
  deps: FollowUpDeps,
  input: { clinicIds: readonly string[]; now: Date; correlationId: string },
): Promise<{ results: FollowUpResult[]; failedClinicIds: string[] }> {
  const results: FollowUpResult[] = [];
  const failedClinicIds: string[] = [];
  for (const clinicId of input.clinicIds) {
    try {
      results.push(await followUpClaimStatus(deps, { clinicId, now: input.now, correlationId: input.correlationId }));
    } catch (error) {
      deps.log?.error(
        { clinicId, correlationId: input.correlationId, err: error instanceof Error ? error.message : String(error) },
        'claim status follow-up of a clinic failed',
      );
      failedClinicIds.push(clinicId);
    }
  }
  return { results, failedClinicIds };
}

/**
 * Accepted claims of the clinic whose (latest) acceptance is at least 14 days before `now` (the submission time when
 * no acceptance event was recorded), with no 835 posted or kept for them, not asked about within 7 days.
 */
async function quietClaims(db: Db, clinicId: string, now: Date): Promise<string[]> {
  const quietSince = new Date(now.getTime() - QUIET_AFTER_DAYS * DAY_MS);
  const askedSince = new Date(now.getTime() - ASK_AGAIN_AFTER_DAYS * DAY_MS);
  const accepted = await db.claim.findMany({
    where: { clinicId, status: 'accepted' },
    select: { id: true, submittedAt: true },
    orderBy: { id: 'asc' },
  });
  if (accepted.length === 0) return [];
  const ids = accepted.map((claim) => claim.id);
  const [acceptances, remitted, posted, asked] = await Promise.all([
    db.claimEvent.groupBy({
      by: ['claimId'],
      where: { clinicId, claimId: { in: ids }, toStatus: 'accepted' },
      _max: { at: true },
    }),
    db.claimTransmission.findMany({
      where: { clinicId, claimId: { in: ids }, kind: '835' },
      select: { claimId: true },
      distinct: ['claimId'],
    }),
    db.remittanceClaim.findMany({
      where: { clinicId, claimId: { in: ids } },
      select: { claimId: true },
      distinct: ['claimId'],
    }),
    db.claimStatusFollowUp.findMany({
      where: { claimId: { in: ids }, askedAt: { gt: askedSince } },
      select: { claimId: true },
    }),
  ]);
  const acceptedAt = new Map(acceptances.map((row) => [row.claimId, row._max.at]));
  const skip = new Set([...remitted, ...posted, ...asked].map((row) => row.claimId));
  return accepted
    .filter((claim) => {
      const since = acceptedAt.get(claim.id) ?? claim.submittedAt;
      return since !== null && since <= quietSince && !skip.has(claim.id);
    })
    .slice(0, MAX_PER_RUN)
    .map((claim) => claim.id);
}

/**
 * Records that the claim is being asked about now, unless it was asked within 7 days (by another run): an insert
 * guarded by the primary key, or an update guarded by the previous time. Returns the previous time to give back.
 */
async function takeSlot(
  db: Db,
  input: { clinicId: string; claimId: string; now: Date },
): Promise<{ taken: boolean; previous: Date | null }> {
  const existing = await db.claimStatusFollowUp.findUnique({ where: { claimId: input.claimId } });
  if (!existing) {
    try {
      await db.claimStatusFollowUp.create({
        data: { claimId: input.claimId, clinicId: input.clinicId, askedAt: input.now },
      });
      return { taken: true, previous: null };
    } catch (error) {
      if (isUniqueViolation(error)) return { taken: false, previous: null };
      throw error;
    }
  }
  const askedSince = new Date(input.now.getTime() - ASK_AGAIN_AFTER_DAYS * DAY_MS);
  if (existing.askedAt > askedSince) return { taken: false, previous: existing.askedAt };
  const { count } = await db.claimStatusFollowUp.updateMany({
    where: { claimId: input.claimId, askedAt: existing.askedAt },
    data: { askedAt: input.now },
  });
  return { taken: count === 1, previous: existing.askedAt };
}

/** A 276 that did not go out (or whose 277 could not be read) leaves the claim as if it was never asked. */
async function giveSlotBack(db: Db, input: { claimId: string; takenAt: Date; previous: Date | null }): Promise<void> {
  const mine = { claimId: input.claimId, askedAt: input.takenAt };
  if (input.previous === null) await db.claimStatusFollowUp.deleteMany({ where: mine });
  else await db.claimStatusFollowUp.updateMany({ where: mine, data: { askedAt: input.previous } });
}
