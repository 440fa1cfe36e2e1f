// GET /api/fhir/{type}/{id}: FHIR R4 read of one of the clinic's resources, with its meta.versionId and
// meta.lastUpdated (the edge sends them as ETag and Last-Modified). Another clinic's resource is simply not found.
// The read is in the PHI access log (purpose fhir.read) before the resource is returned.
import type { Clock } from '../clock';
import type { Db } from '../db';
import { AppError } from '../errors';
import { recordFhirPhiAccess, type PhiAccess } from '../audit/record-phi-access';
import { phiReferencesOf } from './phi-references';
import type { FhirStore, StoredResource } from './fhir-store';
import type { FhirResourceType } from './resource-registry';

export async function readResource(
  deps: { fhirStore: FhirStore; db: Db; clock: Clock },
  input: { reader: Omit<PhiAccess, 'purpose'>; resourceType: FhirResourceType; id: string },
): Promise<StoredResource> {
  const { reader } = input;
  const resource = await deps.fhirStore.read(reader.clinicId, input.resourceType, input.id);
  if (!resource) throw new AppError('NOT_FOUND', `No ${input.resourceType} with that id`);
  await recordFhirPhiAccess(deps.db, { ...reader, purpose: 'fhir.read' }, phiReferencesOf([resource]), deps.clock());
  return resource;
}
