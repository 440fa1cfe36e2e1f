// The CDS Hooks 2.0 service (outside /api and the staff session: the EHR's JWT is the credential, checked by the
// domain after the service id and configuration, and before the body is read: `deferBody`) and the admin's feedback
// counts. Registered in the OpenAPI registry like every route of the app, under the tag cds-hooks; the discovery
// document is the EHR's contract.
import { z } from 'zod';
import { endpoint } from '../endpoint';
import { CdsResponse } from './cds-card';
import { CdsDiscovery } from './cds-services';
import { CdsFeedbackCounts, CdsFeedbackReceipt } from './record-cds-feedback';

/** CDS Hooks 2.0 requires CORS on every service endpoint (the EHR may call from a browser). */
export const CDS_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-expose-headers': 'x-correlation-id',
  'access-control-max-age': '600',
};

const ServiceParams = z.object({ id: z.string().min(1).max(100) });

export const getCdsDiscovery = endpoint({
  method: 'GET',
  path: '/cds-services',
  tags: ['cds-hooks'],
  summary: 'CDS Hooks 2.0 discovery: coverage-check (appointment-book) and coverage-requirements (order-sign)',
  auth: 'public',
  response: CdsDiscovery,
  headers: CDS_CORS_HEADERS,
});

export const postCdsService = endpoint({
  method: 'POST',
  path: '/cds-services/{id}',
  tags: ['cds-hooks'],
  summary:
    'Calls a CDS service with a CDS Hooks 2.0 request; Authorization: Bearer <JWT signed by an EHR registered in ' +
    'CDS_CLIENTS> (aud = this service URL, exp ≤ 5 min after iat, single-use jti). Answers { cards }',
  auth: 'public',
  params: ServiceParams,
  body: z.unknown(),
  deferBody: true,
  response: CdsResponse,
  errors: ['UNAUTHENTICATED', 'NOT_FOUND', 'NOT_CONFIGURED', 'TRANSPORT_FAILED', 'DEPENDENCY_UNAVAILABLE'],
  headers: CDS_CORS_HEADERS,
});

export const postCdsFeedback = endpoint({
  method: 'POST',
  path: '/cds-services/{id}/feedback',
  tags: ['cds-hooks'],
  summary: "CDS Hooks 2.0 feedback: what the clinician did with each card (accepted / overridden); the EHR's JWT",
  auth: 'public',
  params: ServiceParams,
  body: z.unknown(),
  deferBody: true,
  response: CdsFeedbackReceipt,
  errors: ['UNAUTHENTICATED', 'NOT_FOUND', 'NOT_CONFIGURED'],
  headers: CDS_CORS_HEADERS,
});

export const getCdsFeedbackCounts = endpoint({
  method: 'GET',
  path: '/api/cds-hooks/feedback',
  tags: ['cds-hooks'],
  summary: "The clinic's CDS card feedback, counted per service: accepted and overridden (users:admin)",
  auth: 'session',
  scope: 'users:admin',
  response: CdsFeedbackCounts,
});

export const cdsHooksEndpoints = [getCdsDiscovery, postCdsService, postCdsFeedback, getCdsFeedbackCounts];
