// GET /api/fhir/{type}: search the clinic's resources of one type (searchset Bundle; patients:read; PHI-logged).
import { route } from '@/lib/http/route';
import { renderFhir } from '@/lib/http/fhir-response';
import { requireFhirStore } from '@/lib/deps';
import { searchFhirResources } from '@/lib/fhir/endpoints';
import { searchResources } from '@/lib/fhir/search-resources';

export const GET = route({ ...searchFhirResources, render: renderFhir }, ({ params, query, actor, deps }) =>
  searchResources(
    { ...deps, fhirStore: requireFhirStore(deps) },
    { reader: actor, resourceType: params.type, params: query },
  ),
);
