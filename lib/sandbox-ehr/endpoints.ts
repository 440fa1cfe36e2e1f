// The sandbox EHR (sandbox mode only; every route answers 404 in production): a small SMART on FHIR server inside
// this app so the integrations screen can be demoed end to end. Its FHIR routes are "public" to our session gate:
// their credential is the EHR's own bearer access token, checked by the domain on every call.
import { z } from 'zod';
import { endpoint } from '../endpoint';
import { FHIR_JSON, FHIR_NDJSON } from '../fhir/fhir-json';
import { SandboxFileParams, SandboxJobParams } from './sandbox-bulk-export';
import { SandboxSearchQuery } from './search-sandbox-fhir';
import { SandboxCdsJwks, SandboxCdsToken, SandboxCdsTokenBody } from './sandbox-cds-client';

const tags = ['sandbox-ehr'];
const fhir = { tags, errorFormat: 'operation-outcome' as const, produces: FHIR_JSON };
const Resource = z.looseObject({ resourceType: z.string() });
// Path segments are checked by the domain after the sandbox check, so production answers 404 to any of them.
const TypeSegment = z.string().min(1).max(64);
const ehrBearer = ['UNAUTHENTICATED' as const, 'FORBIDDEN' as const, 'NOT_FOUND' as const];

export const sandboxSmartConfigurationEndpoint = endpoint({
  method: 'GET',
  path: '/api/sandbox-ehr/fhir/.well-known/smart-configuration',
  tags,
  auth: 'public',
  summary: 'Sandbox EHR (sandbox only): SMART App Launch v2 and Backend Services discovery',
  errors: ['NOT_FOUND'],
  response: z.looseObject({ authorization_endpoint: z.string(), token_endpoint: z.string() }),
});

export const sandboxMetadataEndpoint = endpoint({
  ...fhir,
  method: 'GET',
  path: '/api/sandbox-ehr/fhir/metadata',
  auth: 'public',
  summary: 'Sandbox EHR (sandbox only): its CapabilityStatement (search/read of six types, Group $export)',
  errors: ['NOT_FOUND'],
  response: Resource,
});

export const sandboxTokenEndpoint = endpoint({
  method: 'POST',
  path: '/api/sandbox-ehr/token',
  tags,
  auth: 'public',
  summary:
    "Sandbox EHR (sandbox only): OAuth token endpoint (form body): authorization_code + PKCE S256, refresh_token, client_credentials with a private_key_jwt verified against this app's JWKS. Errors are RFC 6749 { error, error_description }",
  errors: ['VALIDATION_FAILED', 'UNAUTHENTICATED', 'NOT_FOUND'],
  errorFormat: 'oauth',
  response: z.looseObject({ access_token: z.string(), token_type: z.string(), expires_in: z.number() }),
});

export const sandboxAuthorizeDecisionEndpoint = endpoint({
  method: 'POST',
  path: '/api/sandbox-ehr/authorize',
  tags,
  auth: 'session',
  summary:
    "Sandbox EHR (sandbox only): the signed-in user's Approve/Deny on the authorize page (form body); 302 to the client's redirect_uri with code and state, or error=access_denied",
  successStatus: 302,
  errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
});

export const sandboxSearchEndpoint = endpoint({
  ...fhir,
  method: 'GET',
  path: '/api/sandbox-ehr/fhir/{type}',
  auth: 'public',
  summary:
    'Sandbox EHR (sandbox only): search by patient, _id, _lastUpdated, _count (Bearer access token; a patient must be named)',
  params: z.object({ type: TypeSegment }),
  query: SandboxSearchQuery,
  errors: ehrBearer,
  response: Resource,
});

export const sandboxReadEndpoint = endpoint({
  ...fhir,
  method: 'GET',
  path: '/api/sandbox-ehr/fhir/{type}/{id}',
  auth: 'public',
  summary: 'Sandbox EHR (sandbox only): read one resource or a Group (Bearer access token)',
  params: z.object({ type: TypeSegment, id: z.string().min(1).max(64) }),
  errors: ehrBearer,
  response: Resource,
});

export const sandboxGroupExportEndpoint = endpoint({
  ...fhir,
  method: 'GET',
  path: '/api/sandbox-ehr/fhir/Group/{id}/$export',
  auth: 'public',
  summary:
    'Sandbox EHR (sandbox only): Bulk Data group export kick-off (Prefer: respond-async; backend token): 202 + Content-Location',
  params: z.object({ id: z.string().min(1).max(64) }),
  query: SandboxSearchQuery,
  successStatus: 202,
  errors: ehrBearer,
  response: Resource,
});

export const sandboxExportStatusEndpoint = endpoint({
  method: 'GET',
  path: '/api/sandbox-ehr/bulk-status/{job}',
  tags,
  auth: 'public',
  summary: 'Sandbox EHR (sandbox only): export status, 202 with Retry-After, then the Bulk Data manifest',
  params: SandboxJobParams,
  errors: [...ehrBearer, 'IN_PROGRESS'],
  response: z.looseObject({ transactionTime: z.string(), output: z.array(z.unknown()) }),
});

export const sandboxExportDeleteEndpoint = endpoint({
  method: 'DELETE',
  path: '/api/sandbox-ehr/bulk-status/{job}',
  tags,
  auth: 'public',
  summary: 'Sandbox EHR (sandbox only): cancel or delete an export (202)',
  params: SandboxJobParams,
  successStatus: 202,
  errors: ehrBearer,
});

export const sandboxExportFileEndpoint = endpoint({
  method: 'GET',
  path: '/api/sandbox-ehr/bulk-files/{job}/{type}',
  tags,
  auth: 'public',
  produces: FHIR_NDJSON,
  summary: 'Sandbox EHR (sandbox only): one NDJSON file of an export (Bearer access token)',
  params: SandboxFileParams,
  errors: ehrBearer,
});

// The sandbox EHR as a CDS Hooks client (DECISIONS "CDS Hooks"; docs/cds-hooks.md).
export const sandboxCdsJwksEndpoint = endpoint({
  method: 'GET',
  path: '/api/sandbox-ehr/cds-jwks',
  tags,
  auth: 'public',
  summary: "Sandbox EHR (sandbox only): the JWKS of the key that signs its CDS Hooks calls (the demo clinics' client)",
  errors: ['NOT_FOUND'],
  response: SandboxCdsJwks,
});

export const sandboxCdsTokenEndpoint = endpoint({
  method: 'POST',
  path: '/api/sandbox-ehr/cds-token',
  tags,
  auth: 'session',
  scope: 'patients:read',
  summary:
    "Sandbox EHR (sandbox only, CDS_CLIENTS unset): a 5-minute CDS Hooks call JWT of the signed-in user's clinic's " +
    'sandbox issuer, for trying /cds-services by hand',
  body: SandboxCdsTokenBody,
  response: SandboxCdsToken,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const sandboxEhrEndpoints = [
  sandboxSmartConfigurationEndpoint,
  sandboxMetadataEndpoint,
  sandboxTokenEndpoint,
  sandboxAuthorizeDecisionEndpoint,
  sandboxSearchEndpoint,
  sandboxReadEndpoint,
  sandboxGroupExportEndpoint,
  sandboxExportStatusEndpoint,
  sandboxExportDeleteEndpoint,
  sandboxExportFileEndpoint,
  sandboxCdsJwksEndpoint,
  sandboxCdsTokenEndpoint,
];
