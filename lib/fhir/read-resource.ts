// GET /api/fhir/{type}/{id}: FHIR R4 read of one of the clinic's resources, with ETag (W/"versionId") and
// Last-Modified as FHIR http.html#read asks. Another clinic's resource is simply not found.
import { AppError } from '../errors';
import type { FhirStore } from './fhir-store';
import { fhirJson } from './fhir-json';
import type { FhirResourceType } from './resource-registry';

export async function readResource(
  deps: { fhirStore: FhirStore },
  input: { clinicId: string; resourceType: FhirResourceType; id: string },
): Promise<Response> {
  const resource = await deps.fhirStore.read(input.clinicId, input.resourceType, input.id);
  if (!resource) throw new AppError('NOT_FOUND', `No ${input.resourceType} with that id`);
  const lastModified = new Date(resource.meta.lastUpdated);
  return fhirJson(resource, {
    headers: {
      etag: `W/"${resource.meta.versionId}"`,
      ...(!Number.isNaN(lastModified.getTime()) && { 'last-modified': lastModified.toUTCString() }),
    },
  });
}
