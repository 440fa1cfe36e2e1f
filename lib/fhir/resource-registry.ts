// The FHIR R4 resource types our FHIR API serves, with the interactions and search parameters of each. The
// routes validate against this registry and the CapabilityStatement is generated from it, so what
// /api/fhir/metadata claims and what the routes do cannot drift apart.
import { SYNC_RESOURCE_TYPES } from './types';

/** What pulls bring in, plus what this server writes itself: each eligibility check as FHIR (issue #23). */
export const FHIR_RESOURCE_TYPES = [
  ...SYNC_RESOURCE_TYPES,
  'CoverageEligibilityRequest',
  'CoverageEligibilityResponse',
] as const;
export type FhirResourceType = (typeof FHIR_RESOURCE_TYPES)[number];

export type SearchParamName = '_id' | '_lastUpdated' | 'patient' | 'created';

export type SearchParamDefinition = {
  name: SearchParamName;
  type: 'token' | 'date' | 'reference';
  definition: string;
  documentation: string;
};

export type ResourceDefinition = {
  interactions: readonly ('read' | 'search-type')[];
  /** Where the resource points at its patient (the Patient compartment link); null for Patient itself. */
  patientReferencePath: readonly string[] | null;
  searchParams: readonly SearchParamDefinition[];
  /** Type-level operations, e.g. Patient/$export. */
  operations: readonly { name: string; definition: string }[];
};

const ID: SearchParamDefinition = {
  name: '_id',
  type: 'token',
  definition: 'http://hl7.org/fhir/SearchParameter/Resource-id',
  documentation: 'Logical id; a comma-separated list matches any of them.',
};
const LAST_UPDATED: SearchParamDefinition = {
  name: '_lastUpdated',
  type: 'date',
  definition: 'http://hl7.org/fhir/SearchParameter/Resource-lastUpdated',
  documentation: 'When this server last changed the resource; prefixes eq, ge, gt, le, lt; repeat for a range.',
};
const patient = (type: string): SearchParamDefinition => ({
  name: 'patient',
  type: 'reference',
  definition: `http://hl7.org/fhir/SearchParameter/clinical-patient`,
  documentation: `The patient the ${type} is about: an id or Patient/{id}.`,
});

const created = (type: string): SearchParamDefinition => ({
  name: 'created',
  type: 'date',
  definition: `http://hl7.org/fhir/SearchParameter/${type}-created`,
  documentation: `When the ${type} was created (the eligibility check's time); prefixes eq, ge, gt, le, lt.`,
});

const READ_SEARCH = ['read', 'search-type'] as const;

export const RESOURCE_REGISTRY: Record<FhirResourceType, ResourceDefinition> = {
  Patient: {
    interactions: READ_SEARCH,
    patientReferencePath: null,
    searchParams: [ID, LAST_UPDATED],
    operations: [{ name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export' }],
  },
  Encounter: {
    interactions: READ_SEARCH,
    patientReferencePath: ['subject', 'reference'],
    searchParams: [ID, LAST_UPDATED, patient('Encounter')],
    operations: [],
  },
  Observation: {
    interactions: READ_SEARCH,
    patientReferencePath: ['subject', 'reference'],
    searchParams: [ID, LAST_UPDATED, patient('Observation')],
    operations: [],
  },
  Condition: {
    interactions: READ_SEARCH,
    patientReferencePath: ['subject', 'reference'],
    searchParams: [ID, LAST_UPDATED, patient('Condition')],
    operations: [],
  },
  MedicationRequest: {
    interactions: READ_SEARCH,
    patientReferencePath: ['subject', 'reference'],
    searchParams: [ID, LAST_UPDATED, patient('MedicationRequest')],
    operations: [],
  },
  AllergyIntolerance: {
    interactions: READ_SEARCH,
    patientReferencePath: ['patient', 'reference'],
    searchParams: [ID, LAST_UPDATED, patient('AllergyIntolerance')],
    operations: [],
  },
  CoverageEligibilityRequest: {
    interactions: READ_SEARCH,
    patientReferencePath: ['patient', 'reference'],
    searchParams: [ID, LAST_UPDATED, patient('CoverageEligibilityRequest'), created('CoverageEligibilityRequest')],
    operations: [],
  },
  CoverageEligibilityResponse: {
    interactions: READ_SEARCH,
    patientReferencePath: ['patient', 'reference'],
    searchParams: [ID, LAST_UPDATED, patient('CoverageEligibilityResponse'), created('CoverageEligibilityResponse')],
    operations: [],
  },
};

/** System-level operations (GET /api/fhir/$export). */
export const SYSTEM_OPERATIONS = [
  { name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export' },
] as const;

/** Search paging: `_count` defaults to this and is capped at MAX (a larger value is lowered, as FHIR allows). */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export const isFhirResourceType = (value: string): value is FhirResourceType =>
  (FHIR_RESOURCE_TYPES as readonly string[]).includes(value);

export const supportsSearchParam = (type: FhirResourceType, name: SearchParamName) =>
  RESOURCE_REGISTRY[type].searchParams.some((p) => p.name === name);
