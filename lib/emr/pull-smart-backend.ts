// POST /api/emr-sync/smart/pull: SMART Backend Services. A client_credentials token is requested with a signed
// client assertion (token-client.ts: RS384/ES384, iss = sub = SMART_CLIENT_ID, aud = token URL, unique jti,
// exp <= 5 min, kid = SMART_KEY_ID), then the clinic's bound Group is read (read-group-resources.ts; a "*"
// binding searches the six sync types system-wide), with `_lastUpdated=ge{since}`, following next links, and
// everything is upserted in one transaction (run-pull.ts).
import { z } from 'zod';
import type { Clock } from '../clock';
import { requireSmart, type Config } from '../config';
import type { Db } from '../db';
import { AppError } from '../errors';
import { searchAll } from '../fhir/fhir-search-client';
import type { FhirStore } from '../fhir/fhir-store';
import type { Egress } from '../outbound/egress';
import { SYNC_RESOURCE_TYPES, type FhirResource, type SyncResourceType } from '../fhir/types';
import { getClinicConnection } from './connection-view';
import { isOperatorOrigin } from './fhir-base-url';
import { requireSmartBackendGroup } from './integration-binding';
import { readGroupResources } from './read-group-resources';
import { runPull, type PullResult } from './run-pull';
import { requestBackendServicesToken } from './token-client';

// The binding value for "the whole population the registration sees" (DECISIONS "Trust boundaries").
const ALL_PATIENTS = '*';

/** SMART system scopes (v1 syntax, which SMART v2 servers also accept): read access to the six sync types. */
export const BACKEND_SERVICES_SCOPE = SYNC_RESOURCE_TYPES.map((type) => `system/${type}.read`).join(' ');

const Since = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  message: 'since must be an ISO-8601 date or instant with a zone',
});

export const SmartPullBody = z.object({ connectionId: z.string().min(1).max(100), since: Since.optional() });
export type SmartPullBody = z.infer<typeof SmartPullBody>;

export async function pullSmartBackend(
  deps: { db: Db; clock: Clock; config: Config; fhirStore: FhirStore; egress: Egress },
  input: SmartPullBody & { clinicId: string; correlationId: string },
): Promise<PullResult> {
  // Fail closed before any work: no key, no database read, no network call. Then the operator's binding: a clinic
  // that is not linked gets 403 with nothing read or written.
  const smart = requireSmart(deps.config);
  const groupId = requireSmartBackendGroup(deps.config, input.clinicId);
  const connection = await getClinicConnection(
    deps.db,
    { clinicId: input.clinicId, id: input.connectionId },
    {
      missing: invalidConnection('No such connection'),
      foreign: new AppError('FORBIDDEN', 'This connection belongs to another clinic'),
    },
  );
  if (connection.vendor !== 'smart-backend') throw invalidConnection('Not a smart-backend connection');
  // Platform credentials and the tokens they buy go only to the operator's EMR (DECISIONS "Trust boundaries"):
  // the token URL comes from EMR_VENDORS alone, never from discovery, and a FHIR base on the connection must be on
  // that EMR's origin (refused at create; checked again here for rows written before that rule).
  const entry = deps.config.emrVendors['smart-backend'];
  if (connection.fhirBaseUrl && !isOperatorOrigin(connection.fhirBaseUrl, deps.config)) {
    throw invalidConnection("The connection's FHIR base is not on the configured SMART backend EMR's server");
  }
  const fhirBaseUrl = connection.fhirBaseUrl ?? entry?.fhirBaseUrl;
  if (!fhirBaseUrl) {
    throw new AppError('DEPENDENCY_UNAVAILABLE', "The EMR's FHIR endpoint is not configured", {
      cause: new Error('unconfigured: EMR_VENDORS["smart-backend"].fhirBaseUrl'),
    });
  }
  const tokenUrl = entry?.tokenUrl;
  if (!tokenUrl) {
    throw new AppError('DEPENDENCY_UNAVAILABLE', "The EMR's token endpoint is not configured", {
      cause: new Error('unconfigured: EMR_VENDORS["smart-backend"].tokenUrl'),
    });
  }

  return runPull(
    deps,
    {
      clinicId: input.clinicId,
      connectionId: connection.id,
      kind: 'smart-backend',
      correlationId: input.correlationId,
    },
    async () => {
      const token = await requestBackendServicesToken({
        egress: deps.egress,
        target: 'operator',
        tokenUrl,
        clientId: smart.clientId,
        privateKeyPem: smart.privateKeyPem,
        keyId: smart.keyId,
        scope: BACKEND_SERVICES_SCOPE,
        clock: deps.clock,
      });
      if (groupId !== ALL_PATIENTS) {
        return {
          resources: await readGroupResources({
            egress: deps.egress,
            baseUrl: fhirBaseUrl,
            groupId,
            accessToken: token.accessToken,
            ...(input.since && { since: input.since }),
          }),
          sourceBaseUrl: fhirBaseUrl,
        };
      }
      // "*": the operator bound this clinic to everything the registration sees (a one-clinic deployment).
      const resources = {} as Record<SyncResourceType, FhirResource[]>;
      for (const resourceType of SYNC_RESOURCE_TYPES) {
        resources[resourceType] = await searchAll({
          baseUrl: fhirBaseUrl,
          resourceType,
          accessToken: token.accessToken,
          egress: deps.egress,
          target: 'operator',
          purpose: 'emr',
          params: input.since ? { _lastUpdated: `ge${input.since}` } : {},
        });
      }
      return { resources, sourceBaseUrl: fhirBaseUrl };
    },
  );
}

function invalidConnection(message: string): AppError {
  return new AppError('VALIDATION_FAILED', 'The request body is not valid', {
    issues: [{ path: 'body.connectionId', message }],
  });
}
