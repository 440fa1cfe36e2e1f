// The external FHIR store (FHIR_STORE_URL): a FHIR R4 server over REST behind the same port as the embedded
// store. A pull is one transaction Bundle of PUTs (all-or-nothing by FHIR's transaction rules). The server is
// shared by every clinic, so each resource is kept under a clinic-namespaced id (`{clinicKey}-{id}`, with
// relative references rewritten the same way) and tagged with its clinic; reads and searches filter on the tag
// and refuse anything not carrying the caller's. Versioning (versionId, lastUpdated) is the server's.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../http/errors';
import type { FhirSearchPage, FhirSearchQuery, FhirStore, StoredResource, UpsertCounts } from './fhir-store';
import type { FhirResource } from './types';

type Options = { baseUrl: string; fetch?: typeof fetch; timeoutMs?: number };

export const CLINIC_TAG_SYSTEM = 'urn:clinic-revenue-platform:clinic';
const DEFAULT_TIMEOUT_MS = 15_000;
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const RELATIVE_REFERENCE = /^([A-Z][A-Za-z]{1,63})\/([A-Za-z0-9\-.]{1,64})$/;

const Resource = z.looseObject({ resourceType: z.string(), id: z.string().regex(FHIR_ID) });
const TransactionResponse = z.object({
  resourceType: z.literal('Bundle'),
  entry: z.array(z.object({ response: z.object({ status: z.string() }).optional() })).optional(),
});
const Searchset = z.object({
  resourceType: z.literal('Bundle'),
  total: z.number().int().optional(),
  link: z.array(z.object({ relation: z.string(), url: z.string() })).optional(),
  entry: z.array(z.object({ resource: Resource.optional(), search: z.object({ mode: z.string().optional() }).optional() })).optional(),
});

export function restFhirStore(options: Options): FhirStore {
  const base = new URL(options.baseUrl.replace(/\/+$/, ''));
  const baseHref = base.href.replace(/\/+$/, '');

  async function call(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
    let response: Response;
    let text: string;
    try {
      response = await (options.fetch ?? fetch)(url, {
        ...init,
        headers: { accept: 'application/fhir+json', ...(init.body ? { 'content-type': 'application/fhir+json' } : {}) },
        redirect: 'error',
        cache: 'no-store',
        signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      text = await response.text();
    } catch (cause) {
      throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store is unavailable', { cause });
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  }

  return {
    name: 'external',

    async upsertMany(clinicId, resources) {
      const byType: Record<string, UpsertCounts> = {};
      const latest = new Map(resources.map((r) => [`${r.resourceType}/${r.id}`, r]));
      if (latest.size === 0) return { byType };
      const entries = [...latest.values()].map((resource) => {
        const stored = toStore(clinicId, resource);
        return { fullUrl: `${baseHref}/${stored.resourceType}/${stored.id}`, resource: stored, request: { method: 'PUT', url: `${stored.resourceType}/${stored.id}` } };
      });
      const { status, body } = await call(baseHref, {
        method: 'POST',
        body: JSON.stringify({ resourceType: 'Bundle', type: 'transaction', entry: entries }),
      });
      if (status < 200 || status >= 300) {
        throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store is unavailable; nothing was saved', { cause: { httpStatus: status } });
      }
      // FHIR transaction-response: one entry per request, in order; 201 created, 200 updated.
      const answered = TransactionResponse.safeParse(body).data?.entry ?? [];
      [...latest.values()].forEach((resource, i) => {
        const counts = (byType[resource.resourceType] ??= { created: 0, updated: 0, unchanged: 0 });
        if (answered[i]?.response?.status.startsWith('201')) counts.created += 1;
        else counts.updated += 1;
      });
      return { byType };
    },

    async read(clinicId, resourceType, id) {
      if (!FHIR_ID.test(id)) return null;
      const { status, body } = await call(`${baseHref}/${resourceType}/${namespaced(clinicId, id)}`);
      if (status === 404 || status === 410) return null;
      if (status < 200 || status >= 300) throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store is unavailable', { cause: { httpStatus: status } });
      const parsed = Resource.safeParse(body);
      return parsed.success && parsed.data.resourceType === resourceType ? fromStore(clinicId, parsed.data as FhirResource) : null;
    },

    async search(clinicId, query): Promise<FhirSearchPage> {
      const url = query.cursor ? followCursor(query.cursor) : firstPageUrl(clinicId, query);
      const { status, body } = await call(url);
      if (status < 200 || status >= 300) throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store is unavailable', { cause: { httpStatus: status } });
      const bundle = Searchset.safeParse(body);
      if (!bundle.success) throw new AppError('DEPENDENCY_UNAVAILABLE', 'The FHIR store answered with an unreadable Bundle');
      const resources: StoredResource[] = [];
      for (const entry of bundle.data.entry ?? []) {
        if (!entry.resource || (entry.search?.mode !== undefined && entry.search.mode !== 'match')) continue;
        if (entry.resource.resourceType !== query.resourceType) continue;
        const mine = fromStore(clinicId, entry.resource as FhirResource); // a forged cursor still sees only this clinic
        if (mine) resources.push(mine);
      }
      const next = bundle.data.link?.find((l) => l.relation === 'next')?.url;
      return {
        resources: query.count === 0 ? [] : resources,
        nextCursor: next && query.count > 0 ? Buffer.from(next).toString('base64url') : null,
        ...(bundle.data.total !== undefined && { total: bundle.data.total }),
      };
    },
  };

  function firstPageUrl(clinicId: string, query: FhirSearchQuery): string {
    const url = new URL(`${baseHref}/${query.resourceType}`);
    url.searchParams.append('_tag', `${CLINIC_TAG_SYSTEM}|${clinicId}`);
    url.searchParams.append('_sort', '_lastUpdated');
    if (query.count === 0) url.searchParams.append('_summary', 'count');
    else url.searchParams.append('_count', String(query.count));
    url.searchParams.append('_total', 'accurate');
    if (query.ids) url.searchParams.append('_id', query.ids.map((id) => namespaced(clinicId, id)).join(','));
    for (const bound of query.lastUpdated ?? []) url.searchParams.append('_lastUpdated', `${bound.prefix}${bound.at.toISOString()}`);
    if (query.patientId !== undefined) url.searchParams.append('patient', `Patient/${namespaced(clinicId, query.patientId)}`);
    else if (query.inPatientCompartment && query.resourceType !== 'Patient') url.searchParams.append('patient:missing', 'false');
    return url.href;
  }

  // The cursor is the store's own next link. Only links on the store's origin and base path are followed, so a
  // forged cursor cannot aim our request elsewhere; results are filtered by clinic tag in any case.
  function followCursor(cursor: string): string {
    let url: URL | null = null;
    try {
      url = new URL(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      url = null;
    }
    if (!url || url.origin !== base.origin || !url.pathname.startsWith(base.pathname) || url.username || url.password) {
      throw new AppError('VALIDATION_FAILED', 'The page link is not valid; start the search again', {
        issues: [{ path: 'query._cursor', message: 'Not a cursor this server issued' }],
      });
    }
    return url.href;
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
    throw new AppError('UNPROCESSABLE', 'A resource id is too long for the external FHIR store (at most 51 characters)');
  }
  const { versionId: _v, lastUpdated: _l, ...meta } = (resource.meta ?? {}) as Record<string, unknown>;
  const tags = Array.isArray(meta.tag) ? (meta.tag as unknown[]) : [];
  const body = rewriteReferences(resource, (type, ref) => `${type}/${namespaced(clinicId, ref)}`) as FhirResource;
  return { ...body, id, meta: { ...meta, tag: [...tags, { system: CLINIC_TAG_SYSTEM, code: clinicId }] } } as FhirResource;
}

/** The resource as the clinic knows it, or null when it does not carry the clinic's tag and id prefix. */
function fromStore(clinicId: string, resource: FhirResource): StoredResource | null {
  const prefix = `${clinicKey(clinicId)}-`;
  const meta = (resource.meta ?? {}) as Record<string, unknown>;
  const tags = Array.isArray(meta.tag) ? (meta.tag as Array<{ system?: string; code?: string }>) : [];
  if (!resource.id.startsWith(prefix) || !tags.some((t) => t.system === CLINIC_TAG_SYSTEM && t.code === clinicId)) return null;
  const ownTags = tags.filter((t) => t.system !== CLINIC_TAG_SYSTEM);
  const body = rewriteReferences(resource, (type, ref) => `${type}/${ref.startsWith(prefix) ? ref.slice(prefix.length) : ref}`) as FhirResource;
  const { tag: _tag, ...rest } = meta;
  return {
    ...body,
    id: resource.id.slice(prefix.length),
    meta: { ...rest, ...(ownTags.length && { tag: ownTags }), versionId: String(meta.versionId ?? '1'), lastUpdated: String(meta.lastUpdated ?? '') },
  } as StoredResource;
}

/** Copies `value`, rewriting every relative `reference` ("Type/id") through `map`. */
function rewriteReferences(value: unknown, map: (type: string, id: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteReferences(item, map));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const match = key === 'reference' && typeof item === 'string' ? RELATIVE_REFERENCE.exec(item) : null;
    out[key] = match ? map(match[1]!, match[2]!) : rewriteReferences(item, map);
  }
  return out;
}

