// The content hash of a FHIR resource: sha256 over a canonical JSON form (object keys sorted, no whitespace),
// leaving out the meta members a store or source rewrites on every save (versionId, lastUpdated, source), so an
// unchanged resource hashes the same however often it is pulled and whatever version the EMR gave it.
import { createHash } from 'node:crypto';
import type { FhirResource } from './types';

const VOLATILE_META = new Set(['versionId', 'lastUpdated', 'source']);

/** Hex sha256 of the resource's canonical JSON without meta.versionId, meta.lastUpdated and meta.source. */
export function contentHash(resource: FhirResource): string {
  const { meta, ...rest } = resource;
  const stableMeta = meta ? Object.fromEntries(Object.entries(meta).filter(([key]) => !VOLATILE_META.has(key))) : {};
  const body = Object.keys(stableMeta).length ? { ...rest, meta: stableMeta } : rest;
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** JSON with object keys in code-unit order at every depth; arrays keep their order (it is meaningful in FHIR). */
export function canonicalJson(value: unknown): string {
  // Hand-rolled rather than entries/sort/map: this runs for every pulled resource (see bench/fhir-upsert.ts).
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  let first = true;
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item)}`;
    first = false;
  }
  return `${out}}`;
}
