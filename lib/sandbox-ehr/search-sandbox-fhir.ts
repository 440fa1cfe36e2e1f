// FHIR R4 search and read on the sandbox EHR: the six sync types by `patient`, `_id`, `_lastUpdated` (ge, gt, le,
// lt, eq), `_count` with `next` links (paged by `_offset`), and read of those types and of Group. Like Epic and
// Oracle Health, a search must name its patients (`patient`, or `_id` for Patient): population reads go through
// Group/{id}/$export. Returns FHIR values; the edge sends them.
import { z } from 'zod';
import { AppError } from '../errors';
import { SYNC_RESOURCE_TYPES, type FhirResource } from '../fhir/types';
import {
  findGroup,
  isVisibleTo,
  recordsFor,
  requireAccessToken,
  requireBackendToken,
  requireScopeFor,
  type SandboxDeps,
} from './sandbox-access';
import { patientIdOf } from './synthetic-records';
import { sandboxEhrUrls, requireSandbox } from './sandbox-ehr-urls';

export const SANDBOX_SEARCH_TYPES = SYNC_RESOURCE_TYPES;
export const SandboxResourceType = z.enum([...SYNC_RESOURCE_TYPES, 'Group']);
export const SandboxSearchQuery = z.record(z.string(), z.union([z.string().max(2000), z.array(z.string().max(2000))]));

const DEFAULT_COUNT = 50;
const MAX_COUNT = 100;

type SearchInput = { type: string; query: Record<string, string | string[]>; authorization: string | null };

const list = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { issues: [{ path: `query.${path}`, message }] });

export async function searchSandboxFhir(deps: SandboxDeps, input: SearchInput): Promise<unknown> {
  requireSandbox(deps.config);
  const type = SANDBOX_SEARCH_TYPES.find((t) => t === input.type);
  if (!type) throw new AppError('NOT_FOUND', `${input.type} is not searched here`);
  const token = requireAccessToken(deps, input.authorization);
  requireScopeFor(token, type);
  const patients = new Set(
    list(input.query.patient)
      .flatMap((v) => v.split(','))
      .map((v) => v.replace(/^Patient\//, '')),
  );
  const ids = new Set(list(input.query._id).flatMap((v) => v.split(',')));
  if (type === 'Patient' && patients.size) throw invalid('patient', 'Patient is searched by _id');
  // A patient token's search is its own compartment; a backend token must say which patients.
  if (token.patient) {
    if ([...patients].some((p) => p !== token.patient))
      throw new AppError('FORBIDDEN', 'The token is for another patient');
  } else if (!patients.size && !ids.size) {
    throw invalid(
      'patient',
      'Name the patient (patient=, or _id= for Patient); use Group/{id}/$export for a population',
    );
  }
  const bounds = list(input.query._lastUpdated).map(parseBound);
  const count = Math.min(MAX_COUNT, Math.max(1, Number(input.query._count ?? DEFAULT_COUNT) || DEFAULT_COUNT));
  const offset = Math.max(0, Number(input.query._offset ?? 0) || 0);

  const matches = (await recordsFor(deps, token))
    .flatMap((records) => records.byType[type])
    .filter((resource) => isVisibleTo(token, resource))
    .filter((resource) => !patients.size || patients.has(patientIdOf(resource) ?? ''))
    .filter((resource) => !ids.size || ids.has(resource.id))
    .filter((resource) => bounds.every((bound) => bound(resource.meta?.lastUpdated ?? '')));
  const page = matches.slice(offset, offset + count);

  const base = sandboxEhrUrls(deps.config.appUrl).fhirBaseUrl;
  const pageUrl = (at: number) => {
    const url = new URL(`${base}/${input.type}`);
    for (const [name, value] of Object.entries(input.query))
      if (name !== '_offset') for (const item of list(value)) url.searchParams.append(name, item);
    url.searchParams.set('_count', String(count));
    if (at) url.searchParams.set('_offset', String(at));
    return url.toString();
  };
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total: matches.length,
    link: [
      { relation: 'self', url: pageUrl(offset) },
      ...(offset + count < matches.length ? [{ relation: 'next', url: pageUrl(offset + count) }] : []),
    ],
    entry: page.map((resource) => ({
      fullUrl: `${base}/${resource.resourceType}/${resource.id}`,
      resource,
      search: { mode: 'match' },
    })),
  };
}

export async function readSandboxFhir(
  deps: SandboxDeps,
  input: { type: string; id: string; authorization: string | null },
): Promise<FhirResource> {
  requireSandbox(deps.config);
  const known = SandboxResourceType.safeParse(input.type);
  if (!known.success || !/^[A-Za-z0-9\-.]{1,64}$/.test(input.id)) throw new AppError('NOT_FOUND', 'No such resource');
  const token = requireAccessToken(deps, input.authorization);
  if (known.data === 'Group') {
    requireBackendToken(token);
    const records = await findGroup(deps.db, input.id);
    if (!records) throw new AppError('NOT_FOUND', 'No such Group');
    return records.group;
  }
  const type = known.data;
  requireScopeFor(token, type);
  const found = (await recordsFor(deps, token))
    .flatMap((records) => records.byType[type])
    .find((resource) => resource.id === input.id);
  if (!found || !isVisibleTo(token, found)) throw new AppError('NOT_FOUND', `No such ${input.type}`);
  return found;
}

/** `_lastUpdated=ge2026-01-01T00:00:00Z` and friends, as a predicate on an ISO instant (or date). */
function parseBound(value: string): (lastUpdated: string) => boolean {
  const m = /^(eq|ge|gt|le|lt)?(\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2}))?)$/.exec(value);
  const at = m ? Date.parse(m[2]!) : NaN;
  if (!m || Number.isNaN(at)) throw invalid('_lastUpdated', '_lastUpdated must be [ge|gt|le|lt|eq]<date or instant>');
  const prefix = m[1] ?? 'eq';
  return (lastUpdated) => {
    const t = Date.parse(lastUpdated);
    if (prefix === 'ge') return t >= at;
    if (prefix === 'gt') return t > at;
    if (prefix === 'le') return t <= at;
    if (prefix === 'lt') return t < at;
    return t === at;
  };
}
