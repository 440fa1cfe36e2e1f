// GET /api/fhir/metadata: the CapabilityStatement, generated from the resource registry the FHIR routes use, so
// it lists exactly the types, interactions, search parameters and operations that exist (SPEC Versioning 2:
// this document is the authoritative interaction list).
import {
  DEFAULT_PAGE_SIZE,
  FHIR_RESOURCE_TYPES,
  MAX_PAGE_SIZE,
  RESOURCE_REGISTRY,
  SYSTEM_OPERATIONS,
} from './resource-registry';
import { FHIR_JSON } from './fhir-json';

// Bump when the registry changes: CapabilityStatement.date is when this statement last changed.
const STATEMENT_DATE = '2026-11-28';

export function buildCapabilityStatement(appUrl: string) {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: STATEMENT_DATE,
    publisher: 'Clinic Revenue Platform',
    kind: 'instance',
    instantiates: ['http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data'],
    software: { name: 'Clinic Revenue Platform FHIR API' },
    implementation: {
      description:
        'Clinic-scoped FHIR R4 store of resources pulled from EMRs and of each eligibility check (CoverageEligibilityRequest/Response)',
      url: `${appUrl}/api/fhir`,
    },
    fhirVersion: '4.0.1',
    format: [FHIR_JSON],
    rest: [
      {
        mode: 'server',
        documentation:
          `Read and search need a staff session (cookie or Authorization: Bearer) with scope patients:read and see only the caller's clinic. ` +
          `Searches return searchset Bundles sorted by _lastUpdated; _count defaults to ${DEFAULT_PAGE_SIZE} and is capped at ${MAX_PAGE_SIZE}; ` +
          `follow the Bundle's next link for more. Errors are OperationOutcome resources.`,
        security: {
          cors: false,
          description:
            'Staff session (next-auth JWT) as a cookie or bearer token; tenancy comes from the session only.',
        },
        resource: FHIR_RESOURCE_TYPES.map((type) => {
          const definition = RESOURCE_REGISTRY[type];
          return {
            type,
            profile: `http://hl7.org/fhir/StructureDefinition/${type}`,
            interaction: definition.interactions.map((code) => ({ code })),
            versioning: 'versioned',
            readHistory: false,
            updateCreate: false,
            searchParam: definition.searchParams.map(({ name, type: paramType, definition: url, documentation }) => ({
              name,
              definition: url,
              type: paramType,
              documentation,
            })),
            ...(definition.operations.length && { operation: definition.operations.map((op) => ({ ...op })) }),
          };
        }),
        operation: SYSTEM_OPERATIONS.map((op) => ({ ...op })),
      },
    ],
  };
}
