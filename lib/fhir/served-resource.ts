// Per-source identity of pulled FHIR resources (DECISIONS "Trust boundaries": stored identity is (clinic, source,
// type, id)). A resource pulled from a source is served under an id that names the source, and every reference
// into the same source is rewritten to match, so two EHRs that both send Patient/123 give two patients and each
// Observation keeps pointing at its own. Does not decide tenancy (the stores do) and does not validate bodies.
import { createHash } from 'node:crypto';
import type { FhirResource } from './types';

/**
 * Served ids are at most 51 characters, so the external store's 13-character clinic prefix still fits FHIR's
 * 64 (rest-fhir-store.ts): the same pull gives the same served ids on either store.
 */
export const MAX_SERVED_ID_LENGTH = 51;
const SOURCE_KEY_LENGTH = 12;

// FHIR R4 literal references this module rewrites: `Type/id`, optionally with `/_history/version`.
const RELATIVE_REFERENCE = /^([A-Z][A-Za-z]{1,63})\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[A-Za-z0-9\-.]{1,64})?$/;

export type ServedResource = {
  /** The stored `source`: the pulled server's base URL without trailing slashes, or '' when none was given. */
  source: string;
  resource: FhirResource;
};

/** The source as stored: base URLs that differ only by trailing slashes are one source. */
export function normalizeSource(sourceBaseUrl: string | undefined): string {
  return (sourceBaseUrl ?? '').replace(/\/+$/, '');
}

/**
 * The id a resource is served under. Deterministic: `{sourceKey}-{id}` where sourceKey is the first 12 hex
 * characters of sha256(source); an id too long for that is served as `{sourceKey}.{38 hex of sha256(id)}` (the
 * '.' in place of '-' keeps the two forms from ever meeting). Resources without a source keep their own id.
 */
export function servedId(source: string, id: string): string {
  if (!source) return id;
  const key = sourceKey(source);
  const short = `${key}-${id}`;
  if (short.length <= MAX_SERVED_ID_LENGTH) return short;
  return `${key}.${sha256Hex(id).slice(0, MAX_SERVED_ID_LENGTH - SOURCE_KEY_LENGTH - 1)}`;
}

/**
 * The resource as the store keeps and serves it: its id and every reference into the same source (relative
 * `Type/id`, or absolute under the source's base URL) rewritten to served ids; references elsewhere (other
 * servers, `#contained`, `urn:uuid:`) are left alone. The original identity is kept in meta.source,
 * `{base}/{type}/{id}[/_history/{source version}]`. meta.versionId and meta.lastUpdated are left for the store.
 * Without a source the body is returned as is, apart from meta.source (a store's own resources have none).
 */
export function toServedResource(resource: FhirResource, sourceBaseUrl: string | undefined): ServedResource {
  const source = normalizeSource(sourceBaseUrl);
  const { source: _claimedSource, ...meta } = (resource.meta ?? {}) as Record<string, unknown>;
  if (!source) return { source, resource: { ...resource, meta } as FhirResource };

  const sourceVersion = typeof meta.versionId === 'string' && meta.versionId ? `/_history/${meta.versionId}` : '';
  const rewrite = (reference: string): string | null => {
    const relative = reference.startsWith(`${source}/`) ? reference.slice(source.length + 1) : reference;
    const match = RELATIVE_REFERENCE.exec(relative);
    return match ? `${match[1]}/${servedId(source, match[2]!)}` : null;
  };
  const body = rewriteReferences(resource, rewrite) as FhirResource;
  return {
    source,
    resource: {
      ...body,
      id: servedId(source, resource.id),
      meta: { ...meta, source: `${source}/${resource.resourceType}/${resource.id}${sourceVersion}` },
    },
  };
}

/** Copies `value`, replacing every string `reference` member that `map` rewrites (null: keep it). */
export function rewriteReferences(value: unknown, map: (reference: string) => string | null): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteReferences(item, map));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  // Keys, not entries: this walks every object of every pulled resource, and entries allocates a pair for each
  // member (bench/emr-pull's profile: the walk was the largest self time of the pull's own code after parsing).
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    out[key] = key === 'reference' && typeof item === 'string' ? (map(item) ?? item) : rewriteReferences(item, map);
  }
  return out;
}

// A pull names one source for each of its resources and each of their references: the last key is kept, so the
// source is hashed once a pull rather than two or three times a resource (bench/emr-pull's profile: the hashing
// was an eighth of the server's CPU).
let lastSource: { source: string; key: string } | undefined;

function sourceKey(source: string): string {
  if (lastSource?.source !== source) lastSource = { source, key: sha256Hex(source).slice(0, SOURCE_KEY_LENGTH) };
  return lastSource.key;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
