// The home screen's counts: the signed-in user's work, one section per part of the product their scopes open
// (front desk: today's schedule; billing: claims, denials; money: 835s, deposits, payouts; admin: users, jobs;
// integrations). A section the user cannot open is absent, not empty. Counts are computed in the database (the
// lists they count are capped at 100; a count is not); each is what the linked screen lists.
import { z } from 'zod';
import type { Db } from '../db';
import type { Scope } from '../auth/scopes';
import { findUnmatchedPairs, type ReassociationKind } from '../reconciliation/reassociation-variances';
import { listDenials } from '../remittances/list-denials';
import { NEXT_ACTIONS } from '../remittances/next-action';
import { clinicDayBounds, clinicToday } from '../time/clinic-day';

const Count = z.number().int().nonnegative();

export const HomeSummary = z.object({
  frontDesk: z
    .object({
      date: z.string(),
      appointments: Count,
      needsAttention: Count,
      inactive: Count,
      unknown: Count,
      priorAuth: Count,
      outOfNetwork: Count,
      notChecked: Count,
      /** The evening pre-verification's answers of the last 24 hours that differ from the patient's check before. */
      preVerificationChanges: Count,
    })
    .optional(),
  claims: z
    .object({
      byStatus: z.array(z.object({ status: z.string(), count: Count })),
      /** The denial work queue grouped by what to do next. */
      /** Denials to work per next action (DECISIONS "Claim lifecycle"), actions with none left out. */
      denialsByNextAction: z.array(z.object({ nextAction: z.enum(NEXT_ACTIONS), count: Count })),
    })
    .optional(),
  money: z
    .object({
      /** 835s that pay something and whose deposit has not arrived (waiting, or reported as a variance). */
      erasWaitingForDeposit: Count,
      /** 835 claim payments that named no sent claim and posted nowhere. */
      unpostedClaimPayments: Count,
      /** Bank deposits no 835 explains yet (waiting for their ERA, or reported as a variance). */
      unmatchedDeposits: Count,
      /** Settlement instructions signed and waiting to be paid out (execute, then the rail). */
      payoutsWaiting: Count,
    })
    .optional(),
  admin: z.object({ lockedUsers: Count, failedJobs: Count }).optional(),
  integrations: z.object({ needingAttention: Count }).optional(),
});
export type HomeSummary = z.infer<typeof HomeSummary>;

type Input = { clinicId: string; timeZone: string; scopes: readonly Scope[] };

export async function readHome(deps: { db: Db; clock: () => Date }, input: Input): Promise<HomeSummary> {
  const has = (scope: Scope) => input.scopes.includes(scope);
  const [frontDesk, claims, money, admin, integrations] = await Promise.all([
    has('appointments:read') && has('eligibility:read') ? readFrontDesk(deps, input) : undefined,
    has('claims:read') ? readClaims(deps, input) : undefined,
    has('svcpay:read') ? readMoney(deps, input) : undefined,
    has('users:admin') ? readAdmin(deps, input) : undefined,
    has('integrations:read') ? readIntegrations(deps, input) : undefined,
  ]);
  return { frontDesk, claims, money, admin, integrations };
}

async function readFrontDesk(deps: { db: Db; clock: () => Date }, input: Input) {
  const now = deps.clock();
  const date = clinicToday(now, input.timeZone);
  const { from, to } = clinicDayBounds(date, input.timeZone);
  // Each appointment of today with its patient's newest check: what the roster would show before a new run.
  const [row] = await deps.db.$queryRaw<
    {
      appointments: bigint;
      attention: bigint;
      inactive: bigint;
      unknown: bigint;
      prior_auth: bigint;
      oon: bigint;
      not_checked: bigint;
    }[]
  >`
    WITH today AS (
      SELECT a."id", a."patientId" FROM "Appointment" a
      WHERE a."clinicId" = ${input.clinicId} AND a."start" >= ${from} AND a."start" < ${to}
    ), latest AS (
      SELECT DISTINCT ON (c."patientId") c."patientId", c."result"
      FROM "EligibilityCheck" c
      WHERE c."clinicId" = ${input.clinicId} AND c."patientId" IN (SELECT "patientId" FROM today)
      ORDER BY c."patientId", c."createdAt" DESC
    ), flagged AS (
      SELECT t."id", l."result" IS NULL AS not_checked,
        l."result"->>'status' = 'inactive' AS inactive,
        l."result"->>'status' = 'unknown' AS unknown,
        COALESCE((l."result"->>'priorAuthRequired')::boolean, false)
          OR COALESCE(jsonb_array_length(l."result"->'priorAuthCodes'), 0) > 0 AS prior_auth,
        l."result"->>'status' = 'active' AND l."result"->>'network' = 'OUT' AS oon
      FROM today t LEFT JOIN latest l ON l."patientId" = t."patientId"
    )
    SELECT COUNT(*) AS appointments,
      COUNT(*) FILTER (WHERE inactive OR unknown OR prior_auth OR oon) AS attention,
      COUNT(*) FILTER (WHERE inactive) AS inactive, COUNT(*) FILTER (WHERE unknown) AS unknown,
      COUNT(*) FILTER (WHERE prior_auth) AS prior_auth, COUNT(*) FILTER (WHERE oon) AS oon,
      COUNT(*) FILTER (WHERE not_checked) AS not_checked
    FROM flagged`;
  const since = new Date(now.getTime() - 24 * 3600_000);
  const [changes] = await deps.db.$queryRaw<{ changed: bigint }[]>`
    WITH checks AS (
      SELECT c."source", c."createdAt", c."status",
        c."result"->>'network' AS network, c."result"->>'priorAuthRequired' AS prior_auth,
        LAG(c."status") OVER w AS prev_status, LAG(c."result"->>'network') OVER w AS prev_network,
        LAG(c."result"->>'priorAuthRequired') OVER w AS prev_prior_auth
      FROM "EligibilityCheck" c WHERE c."clinicId" = ${input.clinicId}
      WINDOW w AS (PARTITION BY c."patientId" ORDER BY c."createdAt")
    )
    SELECT COUNT(*) AS changed FROM checks
    WHERE "source" = 'schedule' AND "createdAt" >= ${since} AND prev_status IS NOT NULL
      AND ("status", network, prior_auth) IS DISTINCT FROM (prev_status, prev_network, prev_prior_auth)`;
  const n = (value: bigint | undefined) => Number(value ?? 0n);
  return {
    date,
    appointments: n(row?.appointments),
    needsAttention: n(row?.attention),
    inactive: n(row?.inactive),
    unknown: n(row?.unknown),
    priorAuth: n(row?.prior_auth),
    outOfNetwork: n(row?.oon),
    notChecked: n(row?.not_checked),
    preVerificationChanges: n(changes?.changed),
  };
}

async function readClaims(deps: { db: Db }, input: Input) {
  const groups = await deps.db.claim.groupBy({
    by: ['status'],
    where: { clinicId: input.clinicId },
    _count: { _all: true },
  });
  const { counts } = await listDenials(deps, { clinicId: input.clinicId });
  return {
    byStatus: groups.map((g) => ({ status: g.status, count: g._count._all })),
    denialsByNextAction: NEXT_ACTIONS.filter((nextAction) => counts[nextAction] > 0)
      .map((nextAction) => ({ nextAction, count: counts[nextAction] }))
      .sort((a, b) => b.count - a.count),
  };
}

async function readMoney(deps: { db: Db }, input: Input) {
  // ERAs and deposits still without their pair, counted from the pairs the reconciliation screen lists (waiting or
  // already reported): an 835 that pays nothing (BPR02 0, a denial) expects no deposit, and a trace whose pair
  // arrived is no longer counted, whether or not the nightly run has removed its variance yet.
  const [[row], pairs] = await Promise.all([
    deps.db.$queryRaw<{ unposted: bigint; payouts: bigint }[]>`
    SELECT
      (SELECT COUNT(*) FROM "RemittanceClaim" WHERE "clinicId" = ${input.clinicId} AND "posting" = 'unmatched') AS unposted,
      -- Signed payouts no batch carries yet: the ones a biller still has to put in a bank file.
      (SELECT COUNT(*) FROM "SettlementInstruction" i
        WHERE i."clinicId" = ${input.clinicId} AND i."status" = 'SIGNED'
          AND NOT EXISTS (SELECT 1 FROM "PayoutEntry" e WHERE e."instructionId" = i."id")) AS payouts`,
    findUnmatchedPairs(deps.db, input.clinicId),
  ]);
  const open = (kind: ReassociationKind) => pairs.filter((pair) => pair.kind === kind).length;
  return {
    erasWaitingForDeposit: open('era_without_deposit'),
    unpostedClaimPayments: Number(row?.unposted ?? 0n),
    unmatchedDeposits: open('deposit_without_era'),
    payoutsWaiting: Number(row?.payouts ?? 0n),
  };
}

async function readAdmin(deps: { db: Db; clock: () => Date }, input: Input) {
  const lockedUsers = await deps.db.user.count({
    where: { clinicId: input.clinicId, deactivatedAt: null, lockedUntil: { gt: deps.clock() } },
  });
  // The job engine's tables exist once it has started (pg-boss creates them); before that nothing has failed.
  const [engine] = await deps.db.$queryRaw<{ ready: boolean }[]>`SELECT to_regclass('pgboss.job') IS NOT NULL AS ready`;
  const failed = engine?.ready
    ? await deps.db.$queryRaw<{ failed: bigint }[]>`
        SELECT COUNT(*) AS failed FROM pgboss.job
        WHERE data->>'clinicId' = ${input.clinicId} AND state = 'failed' AND name NOT LIKE '%.dead'`
    : [];
  return { lockedUsers, failedJobs: Number(failed[0]?.failed ?? 0n) };
}

async function readIntegrations(deps: { db: Db }, input: Input) {
  const needingAttention = await deps.db.emrConnection.count({
    where: {
      clinicId: input.clinicId,
      OR: [{ lastError: { not: null } }, { status: 'needs-reauthorization' }],
    },
  });
  return { needingAttention };
}
