// GET /api/fhir/{type}/{id}: read one of the clinic's resources (patients:read).
import { route } from '@/lib/http/route';
import { readFhirResource } from '@/lib/fhir/endpoints';
import { readResource } from '@/lib/fhir/read-resource';

export const GET = route(readFhirResource, ({ params, principal, deps }) =>
  readResource(deps, { clinicId: principal.clinicId, resourceType: params.type, id: params.id }));
