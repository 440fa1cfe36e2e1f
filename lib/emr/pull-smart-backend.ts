// POST /api/emr-sync/smart/pull: SMART Backend Services. A client_credentials token is requested with a signed
// client assertion (token-client.ts: RS384/ES384, iss = sub = SMART_CLIENT_ID, aud = token URL, unique jti,
// exp <= 5 min, kid = SMART_KEY_ID), then the six sync types are searched with `_lastUpdated=ge{since}`
// following next links, and everything is upserted in one transaction (run-pull.ts).
import { z } from 'zod';
import type { Clock } from '../clock';
import { requireSmart, type Config } from '../config';
import type { Db } from '../db';
import { AppError } from '../http/errors';
import { searchAll } from '../fhir/fhir-search-client';
import type { FhirStore } from '../fhir/fhir-store';
import { SYNC_RESOURCE_TYPES, type FhirResource, type SyncResourceType } from '../fhir/types';
import { getClinicConnection } from './connection-view';
import { planTokenEndpoint, resolveTokenEndpoint } from './oauth-endpoints';
import { runPull, type PullResult } from './run-pull';
import { requestBackendServicesToken } from './token-client';

/** SMART system scopes (v1 syntax, which SMART v2 servers also accept): read access to the six sync types. */
export const BACKEND_SERVICES_SCOPE = SYNC_RESOURCE_TYPES.map((type) => `system/${type}.read`).join(' ');

const Since = z.union([z.iso.datetime({ offset: true }), z.iso.date()], { message: 'since must be an ISO-8601 date or instant with a zone' });

export const SmartPullBody = z.object({ connectionId: z.string().min(1).max(100), since: Since.optional() });
export type SmartPullBody = z.infer<typeof SmartPullBody>;

export async function pullSmartBackend(
  deps: { db: Db; clock: Clock; config: Config; fhirStore: FhirStore },
  input: SmartPullBody & { clinicId: string; correlationId: string },
): Promise<PullResult> {
  // Fail closed before any work: no key, no database read, no network call.
  const smart = requireSmart();
  const connection = await getClinicConnection(deps.db, { clinicId: input.clinicId, id: input.connectionId }, {
    missing: invalidConnection('No such connection'),
    foreign: new AppError('FORBIDDEN', 'This connection belongs to another clinic'),
  });
  if (connection.vendor !== 'smart-backend') throw invalidConnection('Not a smart-backend connection');
  const fhirBaseUrl = connection.fhirBaseUrl ?? deps.config.emrVendors['smart-backend']?.fhirBaseUrl;
  if (!fhirBaseUrl) {
    throw new AppError('DEPENDENCY_UNAVAILABLE', "The EMR's FHIR endpoint is not configured", {
      cause: new Error('unconfigured: EMR_VENDORS["smart-backend"].fhirBaseUrl'),
    });
  }
  const tokenPlan = planTokenEndpoint(connection, deps.config);

  return runPull(deps, { clinicId: input.clinicId, connectionId: connection.id, kind: 'smart-backend', correlationId: input.correlationId }, async () => {
    const tokenUrl = await resolveTokenEndpoint(tokenPlan);
    const token = await requestBackendServicesToken({
      tokenUrl, clientId: smart.clientId, privateKeyPem: smart.privateKeyPem, keyId: smart.keyId, scope: BACKEND_SERVICES_SCOPE, clock: deps.clock,
    });
    const resources = {} as Record<SyncResourceType, FhirResource[]>;
    for (const resourceType of SYNC_RESOURCE_TYPES) {
      resources[resourceType] = await searchAll({
        baseUrl: fhirBaseUrl, resourceType, accessToken: token.accessToken,
        params: input.since ? { _lastUpdated: `ge${input.since}` } : {},
      });
    }
    return { resources, sourceBaseUrl: fhirBaseUrl };
  });
}

function invalidConnection(message: string): AppError {
  return new AppError('VALIDATION_FAILED', 'The request body is not valid', { issues: [{ path: 'body.connectionId', message }] });
}
