// The FHIR R4 API: CapabilityStatement, read, search and Bulk Data export. The endpoints whose success bodies are
// FHIR resources (application/fhir+json) answer errors as OperationOutcome (errorFormat); the Bulk Data status
// and file endpoints answer JSON and NDJSON as that spec fixes them (manifest, SPEC's IN_PROGRESS body), so their
// errors are the API's JSON error body. Read, search and export need patients:read: they are clinical PHI.
import { z } from 'zod';
import { endpoint } from '../endpoint';
import { BulkExportManifest } from './bulk-export/bulk-export-status';
import { BulkExportKickOffQuery, BulkExportParametersBody } from './bulk-export/start-bulk-export';
import { FHIR_JSON, FHIR_NDJSON } from './fhir-json';
import { FHIR_RESOURCE_TYPES } from './resource-registry';
import { FhirSearchParams } from './search-resources';

const ResourceType = z.enum(FHIR_RESOURCE_TYPES, { message: `Must be one of ${FHIR_RESOURCE_TYPES.join(', ')}` });
const FhirId = z.string().regex(/^[A-Za-z0-9\-.]{1,64}$/, 'A FHIR id: 1-64 letters, digits, "-" or "."');
const Resource = z.looseObject({ resourceType: z.string(), id: z.string().optional() });
const JobId = z.object({ jobId: z.string().min(1).max(100) });

const fhir = { tags: ['fhir'], errorFormat: 'operation-outcome' as const, produces: FHIR_JSON };

export const getCapabilityStatement = endpoint({
  ...fhir,
  method: 'GET',
  path: '/api/fhir/metadata',
  auth: 'public',
  summary: 'The FHIR R4 CapabilityStatement: the authoritative list of types, interactions and search parameters',
  response: Resource,
});

export const searchFhirResources = endpoint({
  ...fhir,
  method: 'GET',
  path: '/api/fhir/{type}',
  auth: 'session',
  scope: 'patients:read',
  summary:
    "Search the clinic's resources of one type: a searchset Bundle (_id, _lastUpdated, patient, _count, next link)",
  params: z.object({ type: ResourceType }),
  query: FhirSearchParams,
  response: Resource,
});

export const readFhirResource = endpoint({
  ...fhir,
  method: 'GET',
  path: '/api/fhir/{type}/{id}',
  auth: 'session',
  scope: 'patients:read',
  summary: 'Read one of the clinic\'s resources (ETag W/"versionId")',
  errors: ['NOT_FOUND'],
  params: z.object({ type: ResourceType, id: FhirId }),
  response: Resource,
});

const exportKickOff = {
  ...fhir,
  auth: 'session' as const,
  scope: 'patients:read' as const,
  successStatus: 202,
  errors: ['RATE_LIMITED' as const],
  response: Resource,
};

const exportCommon = { ...exportKickOff, method: 'GET' as const, query: BulkExportKickOffQuery };
// Bulk Data v2: the kick-off may also be a POST with a FHIR Parameters body (_type, _since, _outputFormat).
const exportByPost = { ...exportKickOff, method: 'POST' as const, body: BulkExportParametersBody };

export const startSystemExport = endpoint({
  ...exportCommon,
  path: '/api/fhir/$export',
  summary:
    "Bulk Data kick-off for all of the clinic's resources (Prefer: respond-async): 202 with Content-Location of the status URL",
});

export const startPatientExport = endpoint({
  ...exportCommon,
  path: '/api/fhir/Patient/$export',
  summary:
    'Bulk Data kick-off for the Patient compartment (Prefer: respond-async): 202 with Content-Location of the status URL',
});

export const startSystemExportByPost = endpoint({
  ...exportByPost,
  path: '/api/fhir/$export',
  summary:
    'Bulk Data kick-off by POST with a FHIR Parameters body (_type, _since, _outputFormat), as GET: 202 with Content-Location',
});

export const startPatientExportByPost = endpoint({
  ...exportByPost,
  path: '/api/fhir/Patient/$export',
  summary:
    'Bulk Data kick-off of the Patient compartment by POST with a FHIR Parameters body, as GET: 202 with Content-Location',
});

export const getBulkExportStatusEndpoint = endpoint({
  method: 'GET',
  path: '/api/fhir/bulk-status/{jobId}',
  tags: ['fhir'],
  auth: 'session',
  scope: 'patients:read',
  summary:
    'Export status: 202 with Retry-After and { code: IN_PROGRESS, message, correlationId, jobId, retryAfterSeconds } while running, then 200 with the Bulk Data manifest and status',
  params: JobId,
  response: BulkExportManifest,
  errors: ['NOT_FOUND', 'IN_PROGRESS'],
});

export const cancelBulkExportEndpoint = endpoint({
  method: 'DELETE',
  path: '/api/fhir/bulk-status/{jobId}',
  tags: ['fhir'],
  auth: 'session',
  scope: 'patients:read',
  successStatus: 202,
  summary: 'Cancel an export and delete its files (the status URL then answers 404)',
  params: JobId,
  errors: ['NOT_FOUND'],
  response: z.object({ jobId: z.string(), status: z.literal('cancelled') }),
});

export const getBulkExportFile = endpoint({
  method: 'GET',
  path: '/api/fhir/bulk-files/{fileId}',
  tags: ['fhir'],
  auth: 'session',
  scope: 'patients:read',
  produces: FHIR_NDJSON,
  summary: 'One NDJSON file of a finished export',
  params: z.object({ fileId: z.string().min(1).max(100) }),
  errors: ['NOT_FOUND'],
});

export const fhirEndpoints = [
  getCapabilityStatement,
  searchFhirResources,
  readFhirResource,
  startSystemExport,
  startPatientExport,
  startSystemExportByPost,
  startPatientExportByPost,
  getBulkExportStatusEndpoint,
  cancelBulkExportEndpoint,
  getBulkExportFile,
];
