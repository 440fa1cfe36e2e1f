// GET /api/fhir/{type}/{id}: read one of the clinic's resources (patients:read; PHI-logged), with ETag and
// Last-Modified.
import { route } from '@/lib/http/route';
import { renderFhirRead } from '@/lib/http/fhir-response';
import { requireFhirStore } from '@/lib/deps';
import { readFhirResource } from '@/lib/fhir/endpoints';
import { readResource } from '@/lib/fhir/read-resource';

export const GET = route({ ...readFhirResource, render: renderFhirRead }, ({ params, actor, deps }) =>
  readResource(
    { ...deps, fhirStore: requireFhirStore(deps) },
    { reader: actor, resourceType: params.type, id: params.id },
  ),
);
