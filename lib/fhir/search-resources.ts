// GET /api/fhir/{type}: FHIR R4 type-level search over the clinic's resources, as a searchset Bundle with self
// and next links. Supports the parameters the registry lists for the type (_id, _lastUpdated, patient) plus
// _count; any other parameter is ignored and left out of the self link, as FHIR's lenient handling says
// (http.html#search). The page's resources are in the PHI access log (purpose fhir.search) before it is returned.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../errors';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { recordFhirPhiAccess, type PhiAccess } from '../audit/record-phi-access';
import { phiReferencesOf } from './phi-references';
import type { FhirSearchQuery, FhirStore, LastUpdatedBound, StoredResource } from './fhir-store';
import { parseLastUpdated } from './parse-last-updated';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, supportsSearchParam, type FhirResourceType } from './resource-registry';

const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

export const FhirSearchParams = z.object({
  _count: z.coerce.number().int().min(0).optional(),
  _lastUpdated: z.union([z.string(), z.array(z.string()).max(4)]).optional(),
  _id: z.string().max(2000).optional(),
  patient: z.string().max(200).optional(),
  created: z.union([z.string(), z.array(z.string()).max(4)]).optional(),
  _cursor: z.string().max(4096).optional(),
});
export type FhirSearchParams = z.infer<typeof FhirSearchParams>;

type Deps = { fhirStore: FhirStore; db: Db; clock: Clock; config: { appUrl: string } };

export type SearchsetBundle = {
  resourceType: 'Bundle';
  id: string;
  meta: { lastUpdated: string };
  type: 'searchset';
  total?: number;
  link: { relation: string; url: string }[];
  entry: { fullUrl: string; resource: StoredResource; search: { mode: 'match' } }[];
};

export async function searchResources(
  deps: Deps,
  input: { reader: Omit<PhiAccess, 'purpose'>; resourceType: FhirResourceType; params: FhirSearchParams },
): Promise<SearchsetBundle> {
  const { resourceType, params, reader } = input;
  const applied = new URLSearchParams();
  const query: FhirSearchQuery = { resourceType, count: Math.min(params._count ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE) };

  if (params._id !== undefined) {
    const ids = params._id.split(',').map((id) => id.trim());
    if (!ids.every((id) => FHIR_ID.test(id))) invalid('_id', 'Each id must be 1-64 letters, digits, "-" or "."');
    query.ids = ids;
    applied.append('_id', ids.join(','));
  }
  const lastUpdated = [params._lastUpdated ?? []].flat();
  if (lastUpdated.length) {
    const bounds: LastUpdatedBound[] = [];
    for (const value of lastUpdated) {
      const parsed = parseLastUpdated(value);
      if (!parsed)
        invalid('_lastUpdated', 'Use a prefix eq, ge, gt, le or lt and a FHIR date or dateTime, e.g. ge2024-03-01');
      bounds.push(...parsed);
      applied.append('_lastUpdated', value);
    }
    query.lastUpdated = bounds;
  }
  // `created` (the eligibility pair): written once at the check's time and never changed, so its lastUpdated is
  // its created; the bounds are the same (lib/fhir/store-eligibility-pairs.ts).
  const createdBounds = [params.created ?? []].flat();
  if (createdBounds.length && supportsSearchParam(resourceType, 'created')) {
    const bounds: LastUpdatedBound[] = [...(query.lastUpdated ?? [])];
    for (const value of createdBounds) {
      const parsed = parseLastUpdated(value);
      if (!parsed)
        invalid('created', 'Use a prefix eq, ge, gt, le or lt and a FHIR date or dateTime, e.g. ge2024-03-01');
      bounds.push(...parsed);
      applied.append('created', value);
    }
    query.lastUpdated = bounds;
  }
  if (params.patient !== undefined && supportsSearchParam(resourceType, 'patient')) {
    const patientId = params.patient.replace(/^Patient\//, '');
    if (!FHIR_ID.test(patientId)) invalid('patient', 'Must be a patient id or Patient/{id}');
    query.patientId = patientId;
    applied.append('patient', params.patient);
  }
  applied.append('_count', String(query.count));
  if (params._cursor) query.cursor = params._cursor;

  const page = await deps.fhirStore.search(reader.clinicId, query);
  await recordFhirPhiAccess(
    deps.db,
    { ...reader, purpose: 'fhir.search' },
    phiReferencesOf(page.resources),
    deps.clock(),
  );
  const base = `${deps.config.appUrl}/api/fhir`;
  const link = [
    {
      relation: 'self',
      url: `${base}/${resourceType}?${applied}${params._cursor ? `&_cursor=${encodeURIComponent(params._cursor)}` : ''}`,
    },
  ];
  if (page.nextCursor)
    link.push({
      relation: 'next',
      url: `${base}/${resourceType}?${applied}&_cursor=${encodeURIComponent(page.nextCursor)}`,
    });

  return {
    resourceType: 'Bundle',
    id: randomUUID(),
    meta: { lastUpdated: deps.clock().toISOString() },
    type: 'searchset',
    ...(page.total !== undefined && { total: page.total }),
    link,
    entry: page.resources.map((resource) => ({
      fullUrl: `${base}/${resource.resourceType}/${resource.id}`,
      resource,
      search: { mode: 'match' },
    })),
  };
}

function invalid(param: string, message: string): never {
  throw new AppError('VALIDATION_FAILED', `The search parameter ${param} is not valid`, {
    issues: [{ path: `query.${param}`, message }],
  });
}
