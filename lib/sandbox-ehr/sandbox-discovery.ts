// The sandbox EHR's discovery documents: `.well-known/smart-configuration` (SMART App Launch v2 section 2.0.5 and
// Backend Services) and the FHIR R4 CapabilityStatement (search and read of the six sync types, Group read and
// the group-level $export of Bulk Data).
import type { Config } from '../config';
import { SYNC_RESOURCE_TYPES } from '../fhir/types';
import { requireSandbox, sandboxEhrUrls } from './sandbox-ehr-urls';

export function sandboxSmartConfiguration(config: Pick<Config, 'mode' | 'appUrl'>) {
  requireSandbox(config);
  const urls = sandboxEhrUrls(config.appUrl);
  return {
    issuer: urls.fhirBaseUrl,
    authorization_endpoint: urls.authorizeUrl,
    token_endpoint: urls.tokenUrl,
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
    scopes_supported: [
      'launch/patient',
      'offline_access',
      'patient/*.read',
      'patient/*.rs',
      'system/*.read',
      'system/*.rs',
      ...SYNC_RESOURCE_TYPES.map((type) => `system/${type}.read`),
    ],
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    capabilities: [
      'launch-standalone',
      'client-public',
      'client-confidential-asymmetric',
      'context-standalone-patient',
      'permission-offline',
      'permission-patient',
      'permission-v1',
      'permission-v2',
    ],
  };
}

export function sandboxCapabilityStatement(config: Pick<Config, 'mode' | 'appUrl'>) {
  requireSandbox(config);
  const urls = sandboxEhrUrls(config.appUrl);
  const searchParam = (name: string, type: string) => ({ name, type });
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: '2026-11-23',
    kind: 'instance',
    software: { name: 'Clinic Revenue Platform sandbox EHR' },
    implementation: { description: 'Synthetic data for the sandbox demo', url: urls.fhirBaseUrl },
    fhirVersion: '4.0.1',
    format: ['json'],
    instantiates: ['http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data'],
    rest: [
      {
        mode: 'server',
        security: {
          service: [
            {
              coding: [
                { system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR' },
              ],
            },
          ],
        },
        resource: [
          ...SYNC_RESOURCE_TYPES.map((type) => ({
            type,
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            searchParam: [
              searchParam('_id', 'token'),
              searchParam('_lastUpdated', 'date'),
              ...(type === 'Patient' ? [] : [searchParam('patient', 'reference')]),
            ],
          })),
          {
            type: 'Group',
            interaction: [{ code: 'read' }],
            operation: [
              { name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export' },
            ],
          },
        ],
      },
    ],
  };
}
