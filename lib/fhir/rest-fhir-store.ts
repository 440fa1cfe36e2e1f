// The external FHIR store (FHIR_STORE_URL): a FHIR R4 server over REST behind the same port as the embedded
// store. A pull is one transaction Bundle of PUTs (all-or-nothing by FHIR's transaction rules). The server is
// shared by every clinic, so each resource is kept under a clinic-namespaced id (`{clinicKey}-{served id}`, with
// relative references rewritten the same way) and tagged with its clinic (any clinic tag a pulled resource
// brings is dropped); reads and searches filter on the tag and refuse anything not carrying the caller's. Search
// cursors are signed for the clinic and the upstream Bundle.total is never passed on: the server is shared.
// Versioning (versionId, lastUpdated) is the server's. Calls go through the egress client as an operator target
// (FHIR_STORE_URL is the operator's), with a capped response body.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../errors';
import { createEgress, MIB, type Egress } from '../outbound/egress';
import type { FhirSearchPage, FhirSearchQuery, FhirStore, StoredResource, UpsertCounts } from './fhir-store';
import { normalizeSource, rewriteReferences, servedId, toServedResource } from './served-resource';
import type { FhirResource } from './types';

type Options = {
  baseUrl: string;
  /**
   * Signs search cursors (HMAC-SHA256). Derive it from a deployment secret so cursors survive restarts and work
   * across instances; without one, a random key per store instance (cursors then stay valid only in it).
   */
  cursorKey?: Buffer;
  /** The egress client (lib/deps.ts's, where one is at hand); else one of this module's own. */
  egress?: Egress;
  timeoutMs?: number;
  /** Cap on any one response body; MAX_RESPONSE_BYTES unless a test says otherwise. */
  maxResponseBytes?: number;
};

export const CLINIC_TAG_SYSTEM = 'urn:clinic-revenue-platform:clinic';
const DEFAULT_TIMEOUT_MS = 15_000;
// A searchset page holds at most 100 resources (MAX_PAGE_SIZE) and a transaction-response one short entry per
// resource (we ask for return=minimal): 32 MiB leaves room for large resources and refuses a runaway answer.
const MAX_RESPONSE_BYTES = 32 * MIB;
let defaultEgress: Egress | undefined;
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const RELATIVE_REFERENCE = /^([A-Z][A-Za-z]{1,63})\/([A-Za-z0-9\-.]{1,64})$/;
const INVALID_CURSOR = () =>
  new AppError('VALIDATION_FAILED', 'The page link is not valid; start the search again', {
    issues: [{ path: 'query._cursor', message: 'Not a cursor this server issued' }],
  });

const Resource = z.looseObject({ resourceType: z.string(), id: z.string().regex(FHIR_ID) });
const TransactionResponse = z.object({
  resourceType: z.literal('Bundle'),
  entry: z.array(z.object({ response: z.object({ status: z.string() }).optional() })).optional(),
});
const Searchset = z.object({
  resourceType: z.literal('Bundle'),
  link: z.array(z.object({ relation: z.string(), url: z.string() })).optional(),
  entry: z
    .array(z.object({ resource: Resource.optional(), search: z.object({ mode: z.string().optional() }).optional() }))
    .optional(),
});

export function restFhirStore(options: Options): FhirStore {
  const base = new URL(options.baseUrl.replace(/\/+$/, ''));
  const baseHref = base.href.replace(/\/+$/, '');
  const cursorKey = options.cursorKey ?? randomBytes(32);
  // Operator target: the policy's no-redirect rule, body cap and one timeout apply; private addresses are allowed.
  const egress = options.egress ?? (defaultEgress ??= createEgress({ mode: 'production', allowedOrigins: [] }));

  /** Throws the egress client's neutral DEPENDENCY_UNAVAILABLE when the store cannot be reached or answers too much. */
  async function call(
    url: string,
    init: { method?: 'GET' | 'POST'; body?: string } = {},
  ): Promise<{ status: number; body: unknown }> {
    const response = await egress.request({
      url,
      method: init.method ?? 'GET',
      headers: {
        accept: 'application/fhir+json',
        ...(init.body !== undefined && { 'content-type': 'application/fhir+json', prefer: 'return=minimal' }),
      },
      ...(init.body !== undefined && { body: init.body }),
      target: 'operator',
      purpose: 'fhir-store',
      maxBodyBytes: options.maxResponseBytes ?? MAX_RESPONSE_BYTES,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
    let body: unknown;
    try {
      body = response.body.length ? JSON.parse(response.text()) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  }

  return {
    name: 'external',

    async upsertMany(clinicId, resources, { sourceBaseUrl, deletes = [] } = {}) {
      const byType: Record<string, UpsertCounts> = {};
      const served = resources.map((resource) => toServedResource(resource, sourceBaseUrl).resource);
      const latest = new Map(served.map((r) => [`${r.resourceType}/${r.id}`, r]));
      if (latest.size === 0 && deletes.length === 0) return { byType };
      // A source's deletions (Bulk Data `deleted`): DELETE entries of the same transaction, which FHIR processes
      // before its PUTs (R4 3.1.0.11.2), so a resource deleted and created again stays.
      const source = normalizeSource(sourceBaseUrl);
      const gone = [
        ...new Map(
          deletes.map((d) => {
            const url = `${d.resourceType}/${namespaced(clinicId, servedId(source, d.id))}`;
            return [url, { resourceType: d.resourceType, url }];
          }),
        ).values(),
      ];
      const deleteEntries = gone.map(({ url }) => ({ request: { method: 'DELETE', url } }));
      const entries = [...latest.values()].map((resource) => {
        const stored = toStore(clinicId, resource);
        return {
          fullUrl: `${baseHref}/${stored.resourceType}/${stored.id}`,
          resource: stored,
          request: { method: 'PUT', url: `${stored.resourceType}/${stored.id}` },
        };
      });
      const { status, body } = await call(baseHref, {
        method: 'POST',
        body: JSON.stringify({ resourceType: 'Bundle', type: 'transaction', entry: [...deleteEntries, ...entries] }),
      }).catch((cause: unknown) => {
        throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store is unavailable; nothing was saved', { cause });
      });
      if (status < 200 || status >= 300) {
        throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store is unavailable; nothing was saved', {
          cause: { httpStatus: status },
        });
      }
      // FHIR transaction-response: one entry per request, in order; 201 created, 200 updated.
      const answered = TransactionResponse.safeParse(body).data?.entry ?? [];
      // A DELETE of something the server did not hold answers 404 or 204 as the server likes; 200 and 204 count.
      const deleted: Record<string, number> = {};
      gone.forEach(({ resourceType }, i) => {
        const status = answered[i]?.response?.status ?? '';
        if (status.startsWith('200') || status.startsWith('204'))
          deleted[resourceType] = (deleted[resourceType] ?? 0) + 1;
      });
      [...latest.values()].forEach((resource, i) => {
        const counts = (byType[resource.resourceType] ??= { created: 0, updated: 0, unchanged: 0 });
        if (answered[gone.length + i]?.response?.status.startsWith('201')) counts.created += 1;
        else counts.updated += 1;
      });
      return { byType, ...(deletes.length > 0 && { deleted }) };
    },

    async read(clinicId, resourceType, id) {
      if (!FHIR_ID.test(id)) return null;
      const { status, body } = await call(`${baseHref}/${resourceType}/${namespaced(clinicId, id)}`);
      if (status === 404 || status === 410) return null;
      if (status < 200 || status >= 300)
        throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store is unavailable', {
          cause: { httpStatus: status },
        });
      const parsed = Resource.safeParse(body);
      return parsed.success && parsed.data.resourceType === resourceType
        ? fromStore(clinicId, parsed.data as FhirResource)
        : null;
    },

    async search(clinicId, query): Promise<FhirSearchPage> {
      const url = query.cursor ? readCursor(clinicId, query, query.cursor) : firstPageUrl(clinicId, query);
      // The upstream total counts whatever the shared server matched; ours would need every page. _count=0
      // therefore has nothing to answer and makes no call.
      if (query.count === 0) return { resources: [], nextCursor: null };
      const { status, body } = await call(url);
      if (status < 200 || status >= 300)
        throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store is unavailable', {
          cause: { httpStatus: status },
        });
      const bundle = Searchset.safeParse(body);
      if (!bundle.success)
        throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store answered with an unreadable Bundle');
      const resources: StoredResource[] = [];
      for (const entry of bundle.data.entry ?? []) {
        if (!entry.resource || (entry.search?.mode !== undefined && entry.search.mode !== 'match')) continue;
        if (entry.resource.resourceType !== query.resourceType) continue;
        const mine = fromStore(clinicId, entry.resource as FhirResource); // a forged cursor still sees only this clinic
        if (mine) resources.push(mine);
      }
      const next = bundle.data.link?.find((l) => l.relation === 'next')?.url;
      return {
        resources,
        nextCursor: next ? buildCursor(clinicId, query, next) : null,
        // Never the server's Bundle.total: only a count of what this clinic was actually served, when one page
        // held everything.
        ...(!query.cursor && !next && { total: resources.length }),
      };
    },
  };

  function firstPageUrl(clinicId: string, query: FhirSearchQuery): string {
    const url = new URL(`${baseHref}/${query.resourceType}`);
    url.searchParams.append('_tag', `${CLINIC_TAG_SYSTEM}|${clinicId}`);
    url.searchParams.append('_sort', '_lastUpdated');
    url.searchParams.append('_count', String(query.count));
    if (query.ids) url.searchParams.append('_id', query.ids.map((id) => namespaced(clinicId, id)).join(','));
    for (const bound of query.lastUpdated ?? [])
      url.searchParams.append('_lastUpdated', `${bound.prefix}${bound.at.toISOString()}`);
    if (query.patientId !== undefined)
      url.searchParams.append('patient', `Patient/${namespaced(clinicId, query.patientId)}`);
    else if (query.inPatientCompartment && query.resourceType !== 'Patient')
      url.searchParams.append('patient:missing', 'false');
    return url.href;
  }

  // The cursor is the store's own next link, signed for the clinic and resource type that searched: the next
  // link of a shared server can run any search there, so a forged cursor, or another clinic's, is refused
  // before any call. `{link}.{mac}`, both base64url.
  function buildCursor(clinicId: string, query: FhirSearchQuery, next: string): string {
    return `${Buffer.from(next).toString('base64url')}.${cursorMac(clinicId, query, next).toString('base64url')}`;
  }

  function readCursor(clinicId: string, query: FhirSearchQuery, cursor: string): string {
    const [link, mac, extra] = cursor.split('.');
    if (!link || !mac || extra !== undefined) throw INVALID_CURSOR();
    const next = Buffer.from(link, 'base64url').toString('utf8');
    const given = Buffer.from(mac, 'base64url');
    const expected = cursorMac(clinicId, query, next);
    // Constant time: the MAC is attacker-controlled.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw INVALID_CURSOR();
    // Signed by us, so it was the store's own link; checked again so a link the store got wrong goes nowhere else.
    let url: URL;
    try {
      url = new URL(next);
    } catch {
      throw INVALID_CURSOR();
    }
    if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname) || url.username || url.password)
      throw INVALID_CURSOR();
    return url.href;
  }

  function cursorMac(clinicId: string, query: FhirSearchQuery, next: string): Buffer {
    return createHmac('sha256', cursorKey)
      .update(JSON.stringify(['fhir-store-cursor-v1', clinicId, query.resourceType, next]))
      .digest();
  }
}

/** A short, stable key per clinic: ids stay within FHIR's 64 characters and do not reveal the clinic id. */
function clinicKey(clinicId: string): string {
  return createHash('sha256').update(clinicId).digest('hex').slice(0, 12);
}

function namespaced(clinicId: string, id: string): string {
  return `${clinicKey(clinicId)}-${id}`;
}

function toStore(clinicId: string, resource: FhirResource): FhirResource {
  const id = namespaced(clinicId, resource.id);
  if (!FHIR_ID.test(id)) {
    throw new AppError(
      'UNPROCESSABLE',
      'A resource id is too long for the external FHIR store (at most 51 characters)',
    );
  }
  const { versionId: _v, lastUpdated: _l, ...meta } = (resource.meta ?? {}) as Record<string, unknown>;
  // Only the store puts a resource in a clinic's compartment: a clinic tag that came with the resource (another
  // clinic's, or a copy of ours) is dropped, never passed on to the shared server.
  const tags = (Array.isArray(meta.tag) ? (meta.tag as unknown[]) : []).filter((tag) => !isClinicTag(tag));
  const body = rewriteRelative(resource, (type, ref) => `${type}/${namespaced(clinicId, ref)}`) as FhirResource;
  return {
    ...body,
    id,
    meta: { ...meta, tag: [...tags, { system: CLINIC_TAG_SYSTEM, code: clinicId }] },
  } as FhirResource;
}

/** The resource as the clinic knows it, or null when it does not carry the clinic's tag and id prefix. */
function fromStore(clinicId: string, resource: FhirResource): StoredResource | null {
  const prefix = `${clinicKey(clinicId)}-`;
  const meta = (resource.meta ?? {}) as Record<string, unknown>;
  const tags = Array.isArray(meta.tag) ? (meta.tag as Array<{ system?: string; code?: string }>) : [];
  if (!resource.id.startsWith(prefix) || !tags.some((t) => t.system === CLINIC_TAG_SYSTEM && t.code === clinicId))
    return null;
  const ownTags = tags.filter((t) => !isClinicTag(t));
  const body = rewriteRelative(
    resource,
    (type, ref) => `${type}/${ref.startsWith(prefix) ? ref.slice(prefix.length) : ref}`,
  ) as FhirResource;
  const { tag: _tag, ...rest } = meta;
  return {
    ...body,
    id: resource.id.slice(prefix.length),
    meta: {
      ...rest,
      ...(ownTags.length && { tag: ownTags }),
      versionId: String(meta.versionId ?? '1'),
      lastUpdated: String(meta.lastUpdated ?? ''),
    },
  } as StoredResource;
}

function isClinicTag(tag: unknown): boolean {
  return typeof tag === 'object' && tag !== null && (tag as { system?: unknown }).system === CLINIC_TAG_SYSTEM;
}

/** Copies `value`, rewriting every relative `reference` ("Type/id") through `map`. */
function rewriteRelative(value: unknown, map: (type: string, id: string) => string): unknown {
  return rewriteReferences(value, (reference) => {
    const match = RELATIVE_REFERENCE.exec(reference);
    return match ? map(match[1]!, match[2]!) : null;
  });
}
