// GET /api/fhir/{type}: search the clinic's resources of one type (searchset Bundle; patients:read).
import { route } from '@/lib/http/route';
import { searchFhirResources } from '@/lib/fhir/endpoints';
import { searchResources } from '@/lib/fhir/search-resources';

export const GET = route(searchFhirResources, ({ params, query, principal, deps }) =>
  searchResources(deps, { clinicId: principal.clinicId, resourceType: params.type, params: query }));
