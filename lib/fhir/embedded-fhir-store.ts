// The embedded FHIR store: FHIR R4 resources in the app's own database (table FhirResource), one row per
// clinic, source, type and id; resourceId holds the served id (served-resource.ts). Upserts are single
// INSERT ... ON CONFLICT statements inside one transaction, so a pull is all-or-nothing, concurrent pulls of the
// same resource leave one row, and versionId moves only when the content hash changes. Does not validate
// resource bodies beyond resourceType and id (the pull does). Every row carries patientRef (patient-ref.ts), which
// `patient=` searches use through the (clinicId, resourceType, patientRef) index. A pull that streams stages its
// rows in FhirStagedResource (lib/emr/stage-resources.ts) and commits them here in one set-based statement
// (commitStaged), with the same upsert semantics.
import { randomUUID } from 'node:crypto';
import type { Db, Prisma } from '../db';
import { systemClock, type Clock } from '../clock';
import { AppError } from '../errors';
import { contentHash } from './content-hash';
import { patientRefOf } from './patient-ref';
import { normalizeSource, servedId, toServedResource } from './served-resource';
import type {
  FhirSearchPage,
  FhirSearchQuery,
  FhirStore,
  SourceDeletion,
  StoredResource,
  UpsertCounts,
  UpsertResult,
} from './fhir-store';
import { RESOURCE_REGISTRY, type FhirResourceType } from './resource-registry';
import type { FhirResource } from './types';

type Options = { clock?: Clock; /** Rows per INSERT statement. */ chunkSize?: number };

// One statement per chunk: rows arrive as one JSON array (a single bind parameter, so no 65,535-parameter limit),
// are inserted in key order (concurrent pulls lock rows in the same order: no deadlock), and an existing row is
// rewritten only when its content hash differs. `xmax = 0` tells an inserted row from an updated one; the
// answer is counted in the database (a dozen rows back, not one per resource).
const ON_CONFLICT = `ON CONFLICT ("clinicId", "source", "resourceType", "resourceId") DO UPDATE SET
  "versionId" = f."versionId" + 1,
  "lastUpdated" = EXCLUDED."lastUpdated",
  "contentHash" = EXCLUDED."contentHash",
  "resource" = jsonb_set(EXCLUDED."resource", '{meta,versionId}', to_jsonb((f."versionId" + 1)::text)),
  "patientRef" = EXCLUDED."patientRef"
WHERE f."contentHash" <> EXCLUDED."contentHash"
RETURNING f."resourceType" AS t, (f.xmax::text = '0') AS created`;
const UPSERT_SQL = `
WITH written AS (
INSERT INTO "FhirResource" AS f ("id", "clinicId", "source", "resourceType", "resourceId", "versionId", "lastUpdated", "contentHash", "resource", "patientRef")
SELECT x.i, $2, $4, x.t, x.r, 1, $3::timestamp(3), x.h, x.j, x.p
FROM jsonb_to_recordset($1::jsonb) AS x(i text, t text, r text, h text, j jsonb, p text)
ORDER BY x.t, x.r
${ON_CONFLICT}
)
SELECT t AS "resourceType", created, count(*)::int AS n FROM written GROUP BY t, created`;

// A staged pull's commit (lib/emr/stage-resources.ts wrote the rows): the latest staged copy of each resource
// (highest seq) goes in, in key order, with meta.lastUpdated and the column set to the commit's instant, through
// the same conflict rule as UPSERT_SQL. $1 syncRunId, $2 clinicId, $3 source, $4 and $5 the instant (once as a
// timestamp, once as the ISO text for meta: one parameter cannot be both types). When the clinic holds nothing
// of this source yet (its first pull, the big one), every row is new: a plain INSERT, without the conflict
// rule's speculative insertion (a sixth of a 200,000-resource commit, bench/emr-pull); the source's lock
// (LOCK_SOURCE_SQL) keeps that answer true until the commit ends.
const commitStagedSql = (firstOfSource: boolean) => `
WITH written AS (
INSERT INTO "FhirResource" AS f ("id", "clinicId", "source", "resourceType", "resourceId", "versionId", "lastUpdated", "contentHash", "resource", "patientRef")
SELECT 'fr_' || gen_random_uuid(), $2, $3, s."resourceType", s."resourceId", 1, $4::timestamp(3), s."contentHash",
  jsonb_set(s."resource", '{meta,lastUpdated}', to_jsonb($5::text)), s."patientRef"
FROM (
  SELECT DISTINCT ON ("resourceType", "resourceId") "resourceType", "resourceId", "contentHash", "resource", "patientRef"
  FROM "FhirStagedResource" WHERE "syncRunId" = $1
  ORDER BY "resourceType", "resourceId", "seq" DESC
) AS s
ORDER BY s."resourceType", s."resourceId"
${firstOfSource ? 'RETURNING f."resourceType" AS t, true AS created' : ON_CONFLICT}
)
SELECT t AS "resourceType", created, count(*)::int AS n FROM written GROUP BY t, created`;

// Writers of one clinic's rows from one source take turns (a staged commit, upsertMany): the first-pull INSERT
// above relies on no other writer adding rows of that source between its check and its end. $1 clinicId, $2 source.
const LOCK_SOURCE_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('fhir-source:' || $1 || ':' || $2, 0))`;

const SOURCE_STORED_SQL = `
SELECT EXISTS (SELECT 1 FROM "FhirResource" WHERE "clinicId" = $1 AND "source" = $2) AS "stored"`;

const STAGED_COUNT_SQL = `
SELECT "resourceType", count(DISTINCT "resourceId")::int AS n FROM "FhirStagedResource" WHERE "syncRunId" = $1
GROUP BY "resourceType"`;

const DELETE_STAGED_SQL = `DELETE FROM "FhirStagedResource" WHERE "syncRunId" = $1`;

// A source's deletions (a Bulk Data manifest's `deleted`): that source's rows of the clinic with those served ids,
// counted per type. $1 clinicId, $2 source, $3 JSON array of { t, r } (type, served id).
const DELETE_FROM_SOURCE_SQL = `
WITH gone AS (
DELETE FROM "FhirResource" AS f USING json_to_recordset($3::json) AS x(t text, r text)
WHERE f."clinicId" = $1 AND f."source" = $2 AND f."resourceType" = x.t AND f."resourceId" = x.r
RETURNING f."resourceType" AS t
)
SELECT t AS "resourceType", count(*)::int AS n FROM gone GROUP BY t`;

type DeletedCount = { resourceType: string; n: number };

/** The deletions as DELETE_FROM_SOURCE_SQL's parameter: served ids, as the rows hold them. */
function deletionRows(source: string, deletes: readonly SourceDeletion[] | undefined): string {
  return JSON.stringify((deletes ?? []).map((d) => ({ t: d.resourceType, r: servedId(source, d.id) })));
}

function deletedByType(rows: readonly DeletedCount[]): Record<string, number> {
  return Object.fromEntries(rows.map((row) => [row.resourceType, row.n]));
}

type WrittenCount = { resourceType: string; created: boolean; n: number };

const DEFAULT_CHUNK_SIZE = 5000;
// A staged commit is one statement over the whole population (200,000 resources take tens of seconds on a small
// machine); Prisma's default of 5 s per transaction would abort it.
const COMMIT_TIMEOUT_MS = 30 * 60_000;
const COMMIT_WORK_MEM = '64MB';

export function embeddedFhirStore(db: Db, options: Options = {}): FhirStore {
  const clock = options.clock ?? systemClock;
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;

  return {
    name: 'embedded',

    async upsertMany(clinicId, resources, { sourceBaseUrl, deletes } = {}) {
      const now = clock().toISOString();
      const source = normalizeSource(sourceBaseUrl);
      const served = resources.map((resource) => toServedResource(resource, source).resource);
      const rows = [...latestById(served).values()].map((resource) => ({
        i: `fr_${randomUUID()}`,
        ...storedRowOf(resource, now),
      }));
      const byType: Record<string, UpsertCounts> = {};
      for (const row of rows) {
        const counts = (byType[row.t] ??= { created: 0, updated: 0, unchanged: 0 });
        counts.unchanged += 1; // corrected below for rows the statement wrote
      }
      if (rows.length === 0 && !deletes?.length) return { byType };

      // Deletions first, in the same transaction: a resource deleted and then created again stays.
      const statements = [
        db.$queryRawUnsafe<WrittenCount[]>(DELETE_FROM_SOURCE_SQL, clinicId, source, deletionRows(source, deletes)),
      ];
      for (let start = 0; start < rows.length; start += chunkSize) {
        const chunk = JSON.stringify(rows.slice(start, start + chunkSize));
        statements.push(db.$queryRawUnsafe<WrittenCount[]>(UPSERT_SQL, chunk, clinicId, now, source));
      }
      let deleted: unknown;
      let written: WrittenCount[][];
      try {
        [, deleted, ...written] = await db.$transaction([
          db.$executeRawUnsafe(LOCK_SOURCE_SQL, clinicId, source),
          ...statements,
        ]);
      } catch (cause) {
        throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store is unavailable; nothing was saved', { cause });
      }
      applyWritten(byType, written.flat());
      return { byType, deleted: deletedByType(deleted as DeletedCount[]) } satisfies UpsertResult;
    },

    async commitStaged(clinicId, syncRunId, { sourceBaseUrl, deletes } = {}) {
      const now = clock().toISOString();
      const source = normalizeSource(sourceBaseUrl);
      let deleted: DeletedCount[];
      let staged: { resourceType: string; n: number }[];
      let written: WrittenCount[];
      try {
        [deleted, staged, written] = await db.$transaction(
          async (tx) => {
            // The newest-copy pick sorts the whole run; in memory it is several times faster than on disk.
            await tx.$executeRawUnsafe(`SET LOCAL work_mem = '${COMMIT_WORK_MEM}'`);
            await tx.$executeRawUnsafe(LOCK_SOURCE_SQL, clinicId, source);
            // Deletions first: a resource deleted and then created again stays.
            const gone = await tx.$queryRawUnsafe<DeletedCount[]>(
              DELETE_FROM_SOURCE_SQL,
              clinicId,
              source,
              deletionRows(source, deletes),
            );
            const counts = await tx.$queryRawUnsafe<{ resourceType: string; n: number }[]>(STAGED_COUNT_SQL, syncRunId);
            const [{ stored }] = await tx.$queryRawUnsafe<[{ stored: boolean }]>(SOURCE_STORED_SQL, clinicId, source);
            const rows = await tx.$queryRawUnsafe<WrittenCount[]>(
              commitStagedSql(!stored),
              syncRunId,
              clinicId,
              source,
              now,
              now,
            );
            await tx.$executeRawUnsafe(DELETE_STAGED_SQL, syncRunId);
            return [gone, counts, rows] as const;
          },
          { timeout: COMMIT_TIMEOUT_MS },
        );
      } catch (cause) {
        throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store is unavailable; nothing was saved', { cause });
      }
      const byType: Record<string, UpsertCounts> = {};
      for (const row of staged) byType[row.resourceType] = { created: 0, updated: 0, unchanged: row.n };
      applyWritten(byType, written);
      return { byType, deleted: deletedByType(deleted) } satisfies UpsertResult;
    },

    async read(clinicId, resourceType, id) {
      // By served id, whatever the source: served ids name their source, so at most one row matches (the
      // ordering only makes a hash collision between two of the clinic's own sources deterministic).
      const row = await db.fhirResource.findFirst({
        where: { clinicId, resourceType, resourceId: id },
        orderBy: { source: 'asc' },
        select: { resource: true },
      });
      return row ? (row.resource as StoredResource) : null;
    },

    async search(clinicId, query): Promise<FhirSearchPage> {
      const where = whereOf(clinicId, query);
      const after = query.cursor ? parseCursor(query.cursor) : null;
      const total = await db.fhirResource.count({ where });
      if (query.count === 0) return { resources: [], nextCursor: null, total };
      const rows = await db.fhirResource.findMany({
        where: after
          ? {
              AND: [
                where,
                {
                  OR: [
                    { lastUpdated: { gt: after.lastUpdated } },
                    { lastUpdated: after.lastUpdated, resourceId: { gt: after.resourceId } },
                  ],
                },
              ],
            }
          : where,
        orderBy: [{ lastUpdated: 'asc' }, { resourceId: 'asc' }],
        take: query.count + 1,
        select: { resource: true, lastUpdated: true, resourceId: true },
      });
      const page = rows.slice(0, query.count);
      const last = page.at(-1);
      return {
        resources: page.map((row) => row.resource as StoredResource),
        nextCursor: rows.length > query.count && last ? buildCursor(last.lastUpdated, last.resourceId) : null,
        total,
      };
    },
  };
}

function applyWritten(byType: Record<string, UpsertCounts>, written: readonly WrittenCount[]): void {
  for (const row of written) {
    const counts = (byType[row.resourceType] ??= { created: 0, updated: 0, unchanged: 0 });
    counts.unchanged -= row.n;
    if (row.created) counts.created += row.n;
    else counts.updated += row.n;
  }
}

/** A served resource as a row of the store (or of its staging table): type, id, hash, body and patientRef. */
export type StoredRow = { t: string; r: string; h: string; j: StoredResource; p: string | null };

export function storedRowOf(served: FhirResource, now: string): StoredRow {
  return {
    t: served.resourceType,
    r: served.id,
    h: contentHash(served),
    j: withStoreMeta(served, now),
    p: patientRefOf(served),
  };
}

/** A later copy of the same type and id wins (paging over a changing EMR can repeat a resource). */
function latestById(resources: readonly FhirResource[]): Map<string, FhirResource> {
  const byKey = new Map<string, FhirResource>();
  for (const resource of resources) byKey.set(`${resource.resourceType}/${resource.id}`, resource);
  return byKey;
}

/**
 * The body as stored: meta.versionId and meta.lastUpdated are this store's (the SQL raises versionId on an
 * update); meta.source, set by toServedResource, names where it came from.
 */
function withStoreMeta(resource: FhirResource, now: string): StoredResource {
  const {
    versionId: _sourceVersion,
    lastUpdated: _sourceLastUpdated,
    ...meta
  } = (resource.meta ?? {}) as Record<string, unknown>;
  return { ...resource, meta: { ...meta, versionId: '1', lastUpdated: now } };
}

function whereOf(clinicId: string, query: FhirSearchQuery): Prisma.FhirResourceWhereInput {
  const path = RESOURCE_REGISTRY[query.resourceType as FhirResourceType].patientReferencePath;
  const and: Prisma.FhirResourceWhereInput[] = [];
  for (const bound of query.lastUpdated ?? []) {
    const op = { ge: 'gte', gt: 'gt', le: 'lte', lt: 'lt' }[bound.prefix];
    and.push({ lastUpdated: { [op]: bound.at } });
  }
  if (query.patientId !== undefined) {
    if (!path) return { id: { in: [] } }; // Patient has no patient link: nothing matches
    and.push({ patientRef: query.patientId }); // the index, not a JSON scan (patient-ref.ts)
  } else if (query.inPatientCompartment && path) {
    and.push({ resource: { path: [...path], string_starts_with: 'Patient/' } });
  }
  return {
    clinicId,
    resourceType: query.resourceType,
    ...(query.ids && { resourceId: { in: query.ids } }),
    ...(and.length && { AND: and }),
  };
}

// Keyset paging on (lastUpdated, resourceId): stable while pulls add rows, unlike an offset.
function buildCursor(lastUpdated: Date, resourceId: string): string {
  return Buffer.from(JSON.stringify([lastUpdated.toISOString(), resourceId])).toString('base64url');
}

function parseCursor(cursor: string): { lastUpdated: Date; resourceId: string } {
  try {
    const [at, resourceId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    const lastUpdated = new Date(String(at));
    if (typeof resourceId === 'string' && !Number.isNaN(lastUpdated.getTime())) return { lastUpdated, resourceId };
  } catch {
    /* fall through */
  }
  throw new AppError('VALIDATION_FAILED', 'The page link is not valid; start the search again', {
    issues: [{ path: 'query._cursor', message: 'Not a cursor this server issued' }],
  });
}
