// The patient a stored resource belongs to, kept in FhirResource.patientRef (and FhirStagedResource.patientRef) so
// `patient=` searches use the (clinicId, resourceType, patientRef) index instead of scanning JSON. Computed from the
// resource as the store serves it (served-resource.ts): a Patient's own id; for the other types, the id in the
// `Patient/{id}` reference at the type's patientReferencePath (resource-registry.ts). That is the id `patient=`
// takes, so a search is one equality; for a resource without a source it is the original id. A reference to a
// patient on another server, or none, gives null (such a resource matches no `patient=` search, as before).
import { isFhirResourceType, RESOURCE_REGISTRY } from './resource-registry';
import type { FhirResource } from './types';

const PATIENT_REFERENCE = /^Patient\/([A-Za-z0-9\-.]{1,64})$/;

export function patientRefOf(resource: FhirResource): string | null {
  if (!isFhirResourceType(resource.resourceType)) return null;
  const path = RESOURCE_REGISTRY[resource.resourceType].patientReferencePath;
  if (!path) return resource.id;
  let value: unknown = resource;
  for (const key of path) {
    if (!value || typeof value !== 'object') return null;
    value = (value as Record<string, unknown>)[key];
  }
  const match = typeof value === 'string' ? PATIENT_REFERENCE.exec(value) : null;
  return match ? match[1]! : null;
}
