// GET /api/fhir/{type}/{id}: FHIR R4 read of one of the clinic's resources, with its meta.versionId and
// meta.lastUpdated (the edge sends them as ETag and Last-Modified). Another clinic's resource is simply not found.
import { AppError } from '../errors';
import type { FhirStore, StoredResource } from './fhir-store';
import type { FhirResourceType } from './resource-registry';

export async function readResource(
  deps: { fhirStore: FhirStore },
  input: { clinicId: string; resourceType: FhirResourceType; id: string },
): Promise<StoredResource> {
  const resource = await deps.fhirStore.read(input.clinicId, input.resourceType, input.id);
  if (!resource) throw new AppError('NOT_FOUND', `No ${input.resourceType} with that id`);
  return resource;
}
