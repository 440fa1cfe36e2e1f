// The embedded FHIR store: FHIR R4 resources in the app's own database (table FhirResource), one row per
// clinic, source, type and id; resourceId holds the served id (served-resource.ts). Upserts are single
// INSERT ... ON CONFLICT statements inside one transaction, so a pull is all-or-nothing, concurrent pulls of the
// same resource leave one row, and versionId moves only when the content hash changes. Does not validate
// resource bodies beyond resourceType and id (the pull does).
import { randomUUID } from 'node:crypto';
import type { Db, Prisma } from '../db';
import { systemClock, type Clock } from '../clock';
import { AppError } from '../errors';
import { contentHash } from './content-hash';
import { normalizeSource, toServedResource } from './served-resource';
import type {
  FhirSearchPage,
  FhirSearchQuery,
  FhirStore,
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
const UPSERT_SQL = `
WITH written AS (
INSERT INTO "FhirResource" AS f ("id", "clinicId", "source", "resourceType", "resourceId", "versionId", "lastUpdated", "contentHash", "resource")
SELECT x.i, $2, $4, x.t, x.r, 1, $3::timestamp(3), x.h, x.j
FROM jsonb_to_recordset($1::jsonb) AS x(i text, t text, r text, h text, j jsonb)
ORDER BY x.t, x.r
ON CONFLICT ("clinicId", "source", "resourceType", "resourceId") DO UPDATE SET
  "versionId" = f."versionId" + 1,
  "lastUpdated" = EXCLUDED."lastUpdated",
  "contentHash" = EXCLUDED."contentHash",
  "resource" = jsonb_set(EXCLUDED."resource", '{meta,versionId}', to_jsonb((f."versionId" + 1)::text))
WHERE f."contentHash" <> EXCLUDED."contentHash"
RETURNING f."resourceType" AS t, (f.xmax::text = '0') AS created
)
SELECT t AS "resourceType", created, count(*)::int AS n FROM written GROUP BY t, created`;

type WrittenCount = { resourceType: string; created: boolean; n: number };

const DEFAULT_CHUNK_SIZE = 5000;

export function embeddedFhirStore(db: Db, options: Options = {}): FhirStore {
  const clock = options.clock ?? systemClock;
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;

  return {
    name: 'embedded',

    async upsertMany(clinicId, resources, { sourceBaseUrl } = {}) {
      const now = clock().toISOString();
      const source = normalizeSource(sourceBaseUrl);
      const served = resources.map((resource) => toServedResource(resource, source).resource);
      const rows = [...latestById(served).values()].map((resource) => ({
        i: `fr_${randomUUID()}`,
        t: resource.resourceType,
        r: resource.id,
        h: contentHash(resource),
        j: withStoreMeta(resource, now),
      }));
      const byType: Record<string, UpsertCounts> = {};
      for (const row of rows) {
        const counts = (byType[row.t] ??= { created: 0, updated: 0, unchanged: 0 });
        counts.unchanged += 1; // corrected below for rows the statement wrote
      }
      if (rows.length === 0) return { byType };

      const statements = [];
      for (let start = 0; start < rows.length; start += chunkSize) {
        const chunk = JSON.stringify(rows.slice(start, start + chunkSize));
        statements.push(db.$queryRawUnsafe<WrittenCount[]>(UPSERT_SQL, chunk, clinicId, now, source));
      }
      let written: WrittenCount[][];
      try {
        written = await db.$transaction(statements);
      } catch (cause) {
        throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store is unavailable; nothing was saved', { cause });
      }
      for (const row of written.flat()) {
        const counts = byType[row.resourceType]!;
        counts.unchanged -= row.n;
        if (row.created) counts.created += row.n;
        else counts.updated += row.n;
      }
      return { byType } satisfies UpsertResult;
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
    and.push({ resource: { path: [...path], equals: `Patient/${query.patientId}` } });
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
