// POST /api/emr-sync/smart/pull: SMART Backend Services. The EHR's CapabilityStatement says whether it offers FHIR
// Bulk Data export. If it does, the clinic's bound Group is exported (`Group/{id}/$export`, `$export` for a "*"
// binding) with `_type` = the six sync types and `_since`, and the NDJSON files are streamed into the pull
// (bulk-data-client.ts). If not, the Group is read and each type searched by its patients (read-group-resources.ts;
// "*" searches the six types system-wide) with `_lastUpdated=ge{since}`. Tokens are client_credentials with a
// signed client assertion (token-client.ts: RS384/ES384, iss = sub = SMART_CLIENT_ID, aud = token URL, unique jti,
// exp <= 5 min, kid = SMART_KEY_ID), from the token URL in EMR_VENDORS only. Everything is staged and committed
// in one transaction (run-pull.ts).
import { z } from 'zod';
import type { Clock } from '../clock';
import { requireSmart, type Config } from '../config';
import type { Db } from '../db';
import { AppError } from '../errors';
import { searchAll } from '../fhir/fhir-search-client';
import type { FhirStore } from '../fhir/fhir-store';
import type { Logger } from '../log';
import type { Egress } from '../outbound/egress';
import { SYNC_RESOURCE_TYPES } from '../fhir/types';
import { offersExport, readCapabilityStatement } from './bulk-capability';
import { runBulkExport, type BulkTokens } from './bulk-data-client';
import { getClinicConnection } from './connection-view';
import { isOperatorOrigin } from './fhir-base-url';
import { requireSmartBackendGroup } from './integration-binding';
import { readGroupResources } from './read-group-resources';
import { runPull, type PullResult } from './run-pull';
import { requestBackendServicesToken, type EmrTokens } from './token-client';

// The binding value for "the whole population the registration sees" (DECISIONS "Trust boundaries").
const ALL_PATIENTS = '*';
// Tokens: renewed this long before they expire; at most this many after a 401 in one run; a lifetime assumed when
// none is given.
const RENEW_BEFORE_MS = 60_000;
const MAX_TOKEN_REQUESTS = 10;
const DEFAULT_TOKEN_SECONDS = 300;

/** SMART system scopes (v1 syntax, which SMART v2 servers also accept): read access to the six sync types. */
export const BACKEND_SERVICES_SCOPE = SYNC_RESOURCE_TYPES.map((type) => `system/${type}.read`).join(' ');
/** With a Group binding the Group itself is read (`Group/{id}`, `Group/{id}/$export`): EHRs want its scope too. */
export const GROUP_SCOPE = 'system/Group.read';

const Since = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  message: 'since must be an ISO-8601 date or instant with a zone',
});

export const SmartPullBody = z.object({ connectionId: z.string().min(1).max(100), since: Since.optional() });
export type SmartPullBody = z.infer<typeof SmartPullBody>;

/** What a SMART backend pull reads with, once the fail-closed checks passed (checkSmartBackendPull). */
export type SmartBackendTarget = {
  connectionId: string;
  groupId: string;
  fhirBaseUrl: string;
  tokenUrl: string;
  smart: ReturnType<typeof requireSmart>;
};

/**
 * The checks a pull passes before any work, in order: the SMART key (501), the operator's binding of the clinic
 * (403), the connection (a smart-backend one of the clinic, on the operator's EMR), and the EMR's endpoints. No
 * network call; the one database read is the connection. A queued pull (pull-job.ts) runs them at the request, so
 * the user hears of a refusal at once, and again in the job.
 */
export async function checkSmartBackendPull(
  deps: { db: Db; config: Config },
  input: { connectionId: string; clinicId: string },
): Promise<SmartBackendTarget> {
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
  return { connectionId: connection.id, groupId, fhirBaseUrl, tokenUrl, smart };
}

export async function pullSmartBackend(
  deps: {
    db: Db;
    clock: Clock;
    config: Config;
    fhirStore: FhirStore;
    egress: Egress;
    /** Where the export's issues and DELETE failures are logged (the route's logger). */
    log?: Logger;
    /** Stops the pull (a job's cancellation or takeover): checked between status polls; the export is then DELETEd. */
    signal?: AbortSignal;
    /** The user's cancellation alone (part of `signal`): a pull it stops is recorded `cancelled`, not `failed`. */
    cancelled?: AbortSignal;
    /** A simulated wait for tests and for a job engine that schedules its own polls; default setTimeout. */
    sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
    /** How long the export may be polled (default the ruled 24 hours; a job leaves room for its download). */
    maxWaitMs?: number;
  },
  input: SmartPullBody & { clinicId: string; correlationId: string; syncRunId?: string },
): Promise<PullResult> {
  const { connectionId, groupId, fhirBaseUrl, tokenUrl, smart } = await checkSmartBackendPull(deps, input);
  const tokens = backendTokens(deps.clock, () =>
    requestBackendServicesToken({
      egress: deps.egress,
      target: 'operator',
      tokenUrl,
      clientId: smart.clientId,
      privateKeyPem: smart.privateKeyPem,
      keyId: smart.keyId,
      scope: groupId === ALL_PATIENTS ? BACKEND_SERVICES_SCOPE : `${BACKEND_SERVICES_SCOPE} ${GROUP_SCOPE}`,
      clock: deps.clock,
    }),
  );
  return runPull(
    deps,
    {
      clinicId: input.clinicId,
      connectionId,
      kind: 'smart-backend',
      correlationId: input.correlationId,
      sourceBaseUrl: fhirBaseUrl,
      ...(input.syncRunId && { syncRunId: input.syncRunId }),
      ...(deps.cancelled && { cancelled: deps.cancelled }),
    },
    async (pull) => {
      pull.progress({ phase: 'discovery' });
      const capability = await readCapabilityStatement(deps.egress, fhirBaseUrl);
      if (offersExport(capability, groupId === ALL_PATIENTS ? 'system' : 'group')) {
        const exported = await runBulkExport({
          egress: deps.egress,
          baseUrl: fhirBaseUrl,
          groupId,
          types: SYNC_RESOURCE_TYPES,
          ...(input.since && { since: input.since }),
          tokens,
          onResource: (resource, json) => pull.add(resource, { json }),
          // The manifest's `deleted` (with `_since`): removed from this source's resources at the commit.
          onDeleted: (deleted) => pull.remove(deleted),
          ...(deps.signal && { signal: deps.signal }),
          ...(deps.sleep && { sleep: deps.sleep }),
          ...(deps.maxWaitMs && { maxWaitMs: deps.maxWaitMs }),
          onProgress: (progress) =>
            pull.progress(
              progress.phase === 'exporting'
                ? { phase: 'exporting', ...(progress.serverProgress && { serverProgress: progress.serverProgress }) }
                : { phase: 'downloading', files: progress.files, filesDone: progress.filesDone },
            ),
          ...(deps.log && { log: deps.log.child({ correlationId: input.correlationId, bulk: 'export' }) }),
          now: deps.clock,
        });
        // The manifest's transactionTime is the EHR's own clock: the IG's `_since` for the next export.
        return exported.transactionTime && isInstant(exported.transactionTime)
          ? { nextSince: exported.transactionTime }
          : {};
      }
      // No export offered: read the Group and search by its patients, or ("*": the operator bound this clinic to
      // everything the registration sees, a one-clinic deployment) search each type system-wide.
      pull.progress({ phase: 'searching' });
      const accessToken = await tokens.get();
      if (groupId !== ALL_PATIENTS) {
        await readGroupResources(
          {
            egress: deps.egress,
            baseUrl: fhirBaseUrl,
            groupId,
            accessToken,
            ...(input.since && { since: input.since }),
          },
          pull.add,
        );
        return {};
      }
      for (const resourceType of SYNC_RESOURCE_TYPES) {
        const found = await searchAll({
          baseUrl: fhirBaseUrl,
          resourceType,
          accessToken,
          egress: deps.egress,
          target: 'operator',
          purpose: 'emr',
          params: input.since ? { _lastUpdated: `ge${input.since}` } : {},
        });
        for (const resource of found) await pull.add(resource);
      }
      return {};
    },
  );
}

/**
 * The run's backend token: requested when first needed, renewed a minute before it expires, and on demand after
 * a 401. Renewals on expiry are not limited (an export of hours with 5-minute tokens needs dozens); tokens asked
 * for after a 401 are, at most MAX_TOKEN_REQUESTS in one run, so an EHR that refuses every token cannot loop us.
 */
function backendTokens(clock: Clock, request: () => Promise<EmrTokens>): BulkTokens {
  let current: { token: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;
  let afterRefusal = 0;
  const renew = () =>
    (pending ??= (async () => {
      try {
        const tokens = await request();
        const lifetimeMs = (tokens.expiresIn ?? DEFAULT_TOKEN_SECONDS) * 1000;
        current = { token: tokens.accessToken, expiresAt: clock().getTime() + lifetimeMs };
        return tokens.accessToken;
      } finally {
        pending = null;
      }
    })());
  return {
    async get() {
      if (current && current.expiresAt - clock().getTime() > RENEW_BEFORE_MS) return current.token;
      return renew();
    },
    async refresh() {
      if (++afterRefusal > MAX_TOKEN_REQUESTS) {
        throw new AppError('TRANSPORT_FAILED', 'The EMR could not be reached; try again later', {
          cause: { purpose: 'emr', reason: 'token-refused', requests: afterRefusal },
        });
      }
      return renew();
    },
  };
}

function isInstant(value: string): boolean {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value));
}

function invalidConnection(message: string): AppError {
  return new AppError('VALIDATION_FAILED', 'The request body is not valid', {
    issues: [{ path: 'body.connectionId', message }],
  });
}
