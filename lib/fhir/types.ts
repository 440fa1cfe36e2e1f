// The minimal FHIR R4 shapes the sync layer relies on. Resource bodies stay opaque beyond id and meta: we store
// what the EMR sends, we do not model it.

/** A FHIR R4 resource: resourceType, id and meta are checked; every other member is carried through untouched. */
export type FhirResource = {
  resourceType: string;
  id: string;
  meta?: { lastUpdated?: string; versionId?: string; source?: string; [k: string]: unknown };
  [k: string]: unknown;
};

/** The resource types an EMR pull (SMART Backend Services or partner API) reads, per SPEC "POST /api/emr-sync/smart/pull". */
export const SYNC_RESOURCE_TYPES = [
  'Patient',
  'Encounter',
  'Observation',
  'Condition',
  'MedicationRequest',
  'AllergyIntolerance',
] as const;

export type SyncResourceType = (typeof SYNC_RESOURCE_TYPES)[number];
