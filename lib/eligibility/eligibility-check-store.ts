// Where eligibility checks are kept: the 24 h cache lookup and the EligibilityCheck row of each answer (the
// claims precondition reads those rows). One query per call for a single verify; for a roster, one cache query
// for the whole batch and rows written in small batches, so a 500-appointment day is not 1,000 round trips.
import { randomUUID } from 'node:crypto';
import { accessParameter, INSERT_ACCESS, type PhiAccess } from '../audit/record-phi-access';
import type { Db, Prisma } from '../db';
import { refuseOutOfClinic } from '../patients/require-clinic-patients';
import { eligibilityPairRows, insertEligibilityPairs } from '../fhir/store-eligibility-pairs';
import type { Coverage, CoverageOnFile } from './coverage-on-file';

export const CACHE_TTL_MS = 24 * 60 * 60 * 1000;

export type CachedCheck = { createdAt: Date; result: unknown };

export type CacheQuery = { cacheKey: string; clinicId: string; patientId: string; mode: string; now: Date };

export type CheckRow = {
  clinicId: string;
  patientId: string;
  userId: string;
  cacheKey: string;
  payerId: string;
  /** The member id the 270 asked about, and how it and the payer compared with the coverage on file then. */
  memberId: string;
  coverageOnFile: CoverageOnFile;
  serviceType: string;
  dateOfService: string;
  status: string;
  eligible: boolean;
  mode: string;
  cacheable: boolean;
  result: Prisma.InputJsonObject;
  correlationId: string;
  /** staff | schedule */
  source: string;
  createdAt: Date;
};

export interface EligibilityCheckStore {
  /** The newest cacheable check of this key, patient and mode made in the 24 h before `now`, or null. */
  findCached(query: CacheQuery): Promise<CachedCheck | null>;
  /** Resolves once the row is written; rejects when it could not be. */
  record(row: CheckRow): Promise<void>;
}

// The cache rule, written once for every store: the newest cacheable check of each (cacheKey, patientId) a
// clinic made in a mode within the 24 h before `now`. Parameters from $first: the cache keys (JSON array of
// text, or null for every key of the patients) and the patient ids (JSON array of text), clinicId, mode, then
// the window's open start and closed end (UTC ISO text, as timestamp(3) stores Prisma's dates). A key may
// stand with any of the patients; callers look up their pair. Each patient is looked up on its own through the
// (clinicId, patientId, createdAt) index: a filter of the clinic's checks by `patientId = ANY(500 ids)` compares
// every check of the day with every id (11 ms for a 500-patient roster after two others, and worse the busier the
// clinic), and a semi-join left to the planner chose a nested loop over the ids on a table without fresh statistics.
const newestCachedChecks = (first: number) => {
  const $ = (offset: number) => `$${first + offset}`;
  return `SELECT hit."cacheKey", asked."patientId", hit."createdAt", hit."result"
    FROM (SELECT DISTINCT jsonb_array_elements_text(${$(1)}::jsonb) AS "patientId") AS asked
    CROSS JOIN LATERAL (
      SELECT DISTINCT ON ("cacheKey") "cacheKey", "createdAt", "result"
      FROM "EligibilityCheck"
      WHERE "clinicId" = ${$(2)} AND "patientId" = asked."patientId"
        AND "createdAt" > ${$(4)}::timestamp(3) AND "createdAt" <= ${$(5)}::timestamp(3)
        AND "mode" = ${$(3)} AND "cacheable"
        AND (${$(0)}::jsonb IS NULL OR "cacheKey" IN (SELECT jsonb_array_elements_text(${$(0)}::jsonb)))
      ORDER BY "cacheKey", "createdAt" DESC
    ) AS hit`;
};

type CacheLookup = { cacheKey: string; patientId: string };
/** The pairs to look up, or (`patientIds`) every key of those patients: a read that needs no cache key yet. */
type CacheBatch = { clinicId: string; mode: string; now: Date } & (
  { lookups: readonly CacheLookup[] } | { patientIds: readonly string[] }
);

const cacheWindowStart = (now: Date) => new Date(now.getTime() - CACHE_TTL_MS);

function newestCachedChecksParams(batch: CacheBatch): unknown[] {
  const distinct = (values: readonly string[]) => JSON.stringify([...new Set(values)]);
  const [cacheKeys, patientIds] =
    'lookups' in batch
      ? [distinct(batch.lookups.map((l) => l.cacheKey)), distinct(batch.lookups.map((l) => l.patientId))]
      : [null, distinct(batch.patientIds)];
  return [
    cacheKeys,
    patientIds,
    batch.clinicId,
    batch.mode,
    cacheWindowStart(batch.now).toISOString(),
    batch.now.toISOString(),
  ];
}

type CachedRow = CachedCheck & { cacheKey: string; patientId: string };

/** The newest cached check of each lookup, by `${cacheKey}|${patientId}`. */
async function findNewestCachedChecks(db: Db, batch: CacheBatch): Promise<Map<string, CachedCheck>> {
  if (('lookups' in batch ? batch.lookups : batch.patientIds).length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<CachedRow[]>(newestCachedChecks(1), ...newestCachedChecksParams(batch));
  return new Map(rows.map(({ cacheKey, patientId, ...hit }) => [`${cacheKey}|${patientId}`, hit]));
}

export function databaseCheckStore(db: Db): EligibilityCheckStore {
  return {
    async findCached({ cacheKey, clinicId, patientId, mode, now }) {
      const found = await findNewestCachedChecks(db, { clinicId, mode, now, lookups: [{ cacheKey, patientId }] });
      return found.get(`${cacheKey}|${patientId}`) ?? null;
    },
    // The check and its FHIR pair (CoverageEligibilityRequest/Response) together, or neither.
    record: (row) => insertChecks(db, [row]),
  };
}

// $1 the PHI access (INSERT_ACCESS's parameter), $2..$7 the cache query's, $8 the patient id: the patient's
// coverage on file comes along (same clinic only), and the answer is compared with it. Prepared once per connection
// (lib/db.ts), like the session check: a verify answered from the cache is these two statements.
const LOG_ACCESS_AND_FIND_CACHED = `-- prepared: log-access-and-find-cached
WITH logged AS (${INSERT_ACCESS} RETURNING 1)
  SELECT (SELECT count(*) FROM logged)::int AS "logged", hit."createdAt", hit."result",
    p."coverageMemberId", p."coveragePayerId"
  FROM (SELECT 1) AS one
  LEFT JOIN "Patient" AS p ON p."id" = $8 AND p."clinicId" = $4
  LEFT JOIN LATERAL (${newestCachedChecks(2)}) AS hit ON true`;

/**
 * A store for one verify: the PHI access is logged, the cache read and the patient's coverage on file read in
 * ONE statement, so a verify answered from the cache costs two round trips with the session re-check
 * (bench/load). Logging scopes the patient: OUT_OF_SCOPE, with nothing logged, when the patient is not the
 * clinic's. Rows are written as databaseCheckStore writes them.
 */
export async function loggedCheckStore(
  db: Db,
  access: PhiAccess,
  query: CacheQuery,
): Promise<EligibilityCheckStore & { coverage: Coverage }> {
  const logging = accessParameter(access, [query.patientId], query.now);
  type Row = {
    logged: number;
    createdAt: Date | null;
    result: unknown;
    coverageMemberId: string | null;
    coveragePayerId: string | null;
  };
  const { cacheKey, patientId } = query;
  const cache = newestCachedChecksParams({ ...query, lookups: [{ cacheKey, patientId }] });
  const [row] = await db.$queryRawUnsafe<Row[]>(LOG_ACCESS_AND_FIND_CACHED, logging.json, ...cache, query.patientId);
  if (row!.logged !== logging.count) refuseOutOfClinic(access.clinicId, logging.count - row!.logged, logging.count);
  const hit = row!.createdAt ? { createdAt: row!.createdAt, result: row!.result } : null;
  return {
    coverage: { memberId: row!.coverageMemberId, payerId: row!.coveragePayerId },
    // Answers only for the query it was built for; any other is a cache miss.
    findCached: async ({ cacheKey, patientId, mode }) =>
      cacheKey === query.cacheKey && patientId === query.patientId && mode === query.mode ? hit : null,
    record: databaseCheckStore(db).record,
  };
}

// Rows wait at most this long for company before they are written together, unless the batch fills up or the
// run says no later round will join them (flush). Long enough that a round of answers from a pool of payer lookups goes
// in one statement written between rounds: at 2 ms a 500-appointment roster on a 200 ms payer made ~300
// one-or-two-row statements, and their CPU, landing among the answers, delayed the next 270s (bench/roster,
// DECISIONS "Margins").
const FLUSH_DELAY_MS = 50;
const MAX_BATCH = 100;

/** The roster's store: `flush` writes the rows waiting for company now (no later round will join them). */
export type BatchCheckStore = EligibilityCheckStore & { flush(): void };

/**
 * A store for one roster run: the cache answers for every (cacheKey, patient) of the batch, or for every key of
 * its patients (`patientIds`: the read can start before any key is known), come from one query made up front,
 * and rows are written in batches. `record` still resolves only after its own
 * row is in the database, so a result is never reported before it is recorded.
 */
export async function batchCheckStore(db: Db, batch: CacheBatch): Promise<BatchCheckStore> {
  const newest = await findNewestCachedChecks(db, batch);
  let pending: { row: CheckRow; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const writing = pending;
    pending = [];
    insertChecks(
      db,
      writing.map((p) => p.row),
    ).then(
      () => writing.forEach((p) => p.resolve()),
      (error: unknown) => writing.forEach((p) => p.reject(error)),
    );
  };

  return {
    // Answers only for the batch it was built for; a query outside it is a cache miss.
    findCached: async ({ cacheKey, patientId, now }) => {
      const hit = newest.get(`${cacheKey}|${patientId}`);
      return hit && hit.createdAt > cacheWindowStart(now) ? hit : null;
    },
    record(row) {
      return new Promise<void>((resolve, reject) => {
        pending.push({ row, resolve, reject });
        if (pending.length >= MAX_BATCH) flush();
        else timer ??= setTimeout(flush, FLUSH_DELAY_MS);
      });
    },
    flush,
  };
}

const COLUMNS = [
  ['id', 'text'],
  ['clinicId', 'text'],
  ['patientId', 'text'],
  ['userId', 'text'],
  ['cacheKey', 'text'],
  ['payerId', 'text'],
  ['memberId', 'text'],
  ['coverageOnFile', 'text'],
  ['serviceType', 'text'],
  ['dateOfService', 'text'],
  ['status', 'text'],
  ['eligible', 'boolean'],
  ['mode', 'text'],
  ['cacheable', 'boolean'],
  ['result', 'jsonb'],
  ['correlationId', 'text'],
  ['source', 'text'],
  ['createdAt', 'timestamp(3)'],
] as const;
const names = COLUMNS.map(([name]) => `"${name}"`).join(', ');
// The checks ($1) and their FHIR pairs ($2) in ONE statement: a data-modifying WITH runs to completion whether or
// not it is read, and a statement is atomic, so both or neither are written without a transaction of our own
// (a Prisma $transaction of the two cost BEGIN and COMMIT round trips and its own bookkeeping per batch). Its text
// is constant, so it is prepared once per connection (lib/db.ts).
const INSERT_CHECKS_AND_PAIRS = `-- prepared: insert-eligibility-checks-and-pairs
WITH checks AS (
  INSERT INTO "EligibilityCheck" (${names}) SELECT ${names} FROM jsonb_to_recordset($1::jsonb) AS rows(${COLUMNS.map(([name, type]) => `"${name}" ${type}`).join(', ')})
)
${insertEligibilityPairs(2)}`;

/**
 * Writes rows in one statement with one JSON parameter each for the checks and their pairs. Prisma's createMany
 * spends about 2 ms of CPU per row here (it walks each row's JSON result); at 100 lookups a second that alone
 * would eat a roster's budget. createdAt goes in as UTC ISO text, which timestamp(3) stores as the UTC wall time,
 * as Prisma does.
 */
async function insertChecks(db: Db, rows: readonly CheckRow[]): Promise<void> {
  const withIds = rows.map((row) => ({ id: randomUUID(), ...row }));
  const records = withIds.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
  await db.$executeRawUnsafe(INSERT_CHECKS_AND_PAIRS, JSON.stringify(records), eligibilityPairRows(withIds));
}
