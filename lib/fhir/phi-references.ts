// Whose protected data a set of served FHIR resources is: the `Patient/{id}` reference of each resource's patient
// (patient-ref.ts), or the resource's own reference when it names no patient of the store, so every resource read
// leaves a trace in the PHI access log. Types the store does not serve (an export's OperationOutcomes) carry no
// patient data and give none. Pure; duplicates are the log's to collapse.
import { patientRefOf } from './patient-ref';
import { isFhirResourceType } from './resource-registry';
import type { FhirResource } from './types';

export function phiReferencesOf(resources: Iterable<FhirResource>): string[] {
  const references: string[] = [];
  for (const resource of resources) {
    if (!isFhirResourceType(resource.resourceType)) continue;
    const patient = patientRefOf(resource);
    references.push(patient ? `Patient/${patient}` : `${resource.resourceType}/${resource.id}`);
  }
  return references;
}
