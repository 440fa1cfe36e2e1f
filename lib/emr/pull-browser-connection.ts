// A browser-authorized connection's pull (browser-oauth, generic-fhir): the patient compartment the user granted
// at launch (SMART `patient` context, EmrConnection.launchPatientId): `Patient/{id}`, then each other sync type
// searched by `patient` (with `_lastUpdated=ge{since}` from the last successful run), using the connection's own
// access token, refreshed first when it is about to expire (refresh-access-token.ts). Resources go through the
// same all-or-nothing tail as every pull (run-pull.ts). The FHIR base is the connection's own (tenant egress
// policy) or its vendor's EMR_VENDORS entry (the operator's). The run's cursor (the next pull's `since`) is the EHR's
// own clock: the `Date` of its answer to the first read, made before any search (so nothing changed after it is
// missed, whatever our clock says); our start instant only when the EHR sends no usable Date.
import type { Clock } from '../clock';
import type { Config, EmrVendorKind } from '../config';
import type { Db } from '../db';
import { AppError } from '../errors';
import { searchAll } from '../fhir/fhir-search-client';
import type { FhirStore } from '../fhir/fhir-store';
import { FHIR_JSON } from '../fhir/fhir-json';
import { SYNC_RESOURCE_TYPES } from '../fhir/types';
import { egressError, loggableUrl, MIB, type Egress, type EgressTarget } from '../outbound/egress';
import type { ConnectionRow } from './connection-view';
import { refreshAccessTokenIfDue } from './refresh-access-token';
import { runPull, type PullResult } from './run-pull';

export const BROWSER_VENDORS: readonly string[] = ['browser-oauth', 'generic-fhir'];

const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const READ_TIMEOUT_MS = 15_000;
const MAX_RESOURCE_BYTES = 4 * MIB;

type Deps = { db: Db; clock: Clock; config: Config; fhirStore: FhirStore; egress: Egress };

export async function pullBrowserConnection(
  deps: Deps,
  connection: ConnectionRow,
  input: { since?: string; userId: string; correlationId: string },
): Promise<PullResult> {
  if (!BROWSER_VENDORS.includes(connection.vendor)) throw new Error('pullBrowserConnection: not a browser connection');
  if (connection.status !== 'connected')
    throw new AppError('UNPROCESSABLE', connection.lastError ?? 'This connection is not authorized; connect it first');
  const patientId = connection.launchPatientId;
  if (!patientId || !FHIR_ID.test(patientId)) {
    throw new AppError(
      'UNPROCESSABLE',
      'This connection was authorized without a patient in context, so there is nothing it may read; connect it again and pick a patient',
    );
  }
  const { baseUrl, target } = fhirBaseOf(connection, deps.config);
  const since = input.since ?? (await lastCursor(deps.db, connection));
  const accessToken = await refreshAccessTokenIfDue(deps, connection, input);

  return runPull(
    deps,
    {
      clinicId: connection.clinicId,
      connectionId: connection.id,
      kind: 'browser-oauth',
      correlationId: input.correlationId,
      sourceBaseUrl: baseUrl,
    },
    async (pull) => {
      pull.progress({ phase: 'searching' });
      const read = await readPatient({ egress: deps.egress, baseUrl, target, accessToken, patientId });
      await pull.add(read.resource);
      for (const resourceType of SYNC_RESOURCE_TYPES.filter((type) => type !== 'Patient')) {
        const found = await searchAll({
          baseUrl,
          resourceType,
          accessToken,
          egress: deps.egress,
          target,
          purpose: 'emr',
          params: { patient: patientId, ...(since && { _lastUpdated: `ge${since}` }) },
        });
        for (const resource of found) await pull.add(resource);
      }
      return read.serverTime ? { nextSince: read.serverTime } : {};
    },
  );
}

/** The EHR's clock from an HTTP `Date` (IMF-fixdate, whole seconds), as an instant; null when absent or unreadable. */
function serverTimeOf(date: string | null): string | null {
  if (!date || !/^[A-Za-z]{3}, \d\d [A-Za-z]{3} \d{4} \d\d:\d\d:\d\d GMT$/.test(date.trim())) return null;
  const at = Date.parse(date);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

function fhirBaseOf(connection: ConnectionRow, config: Config): { baseUrl: string; target: EgressTarget } {
  if (connection.fhirBaseUrl) return { baseUrl: connection.fhirBaseUrl.replace(/\/+$/, ''), target: 'tenant' };
  const configured = config.emrVendors[connection.vendor as EmrVendorKind]?.fhirBaseUrl;
  if (!configured) {
    throw new AppError('DEPENDENCY_UNAVAILABLE', "The EMR's FHIR endpoint is not configured", {
      cause: new Error(`unconfigured: EMR_VENDORS["${connection.vendor}"].fhirBaseUrl`),
    });
  }
  return { baseUrl: configured.replace(/\/+$/, ''), target: 'operator' };
}

/** Where the last successful pull of this connection left off (its nextSince), if any. */
async function lastCursor(db: Db, connection: ConnectionRow): Promise<string | undefined> {
  const last = await db.syncRun.findFirst({
    where: { clinicId: connection.clinicId, connectionId: connection.id, status: 'succeeded' },
    orderBy: { startedAt: 'desc' },
    select: { cursor: true },
  });
  return last?.cursor ?? undefined;
}

/** FHIR read of the launch patient (http.html#read); the bearer token goes only to the connection's FHIR base. */
async function readPatient(input: {
  egress: Egress;
  baseUrl: string;
  target: EgressTarget;
  accessToken: string;
  patientId: string;
}): Promise<{ resource: unknown; serverTime: string | null }> {
  const url = `${input.baseUrl}/Patient/${input.patientId}`;
  const where = loggableUrl(new URL(url));
  const response = await input.egress.request({
    url,
    headers: { accept: FHIR_JSON, authorization: `Bearer ${input.accessToken}` },
    target: input.target,
    purpose: 'emr',
    maxBodyBytes: MAX_RESOURCE_BYTES,
    timeoutMs: READ_TIMEOUT_MS,
  });
  if (response.status !== 200) throw egressError('emr', { reason: 'status', url: where, status: response.status });
  let resource: unknown;
  try {
    resource = JSON.parse(response.text());
  } catch (error) {
    throw egressError('emr', { reason: 'invalid-body', url: where, problem: 'not JSON' }, error);
  }
  const patient = resource as { resourceType?: unknown; id?: unknown } | null;
  if (patient?.resourceType !== 'Patient' || patient.id !== input.patientId)
    throw egressError('emr', { reason: 'invalid-body', url: where, problem: 'not the launch Patient' });
  return { resource, serverTime: serverTimeOf(response.headers.get('date')) };
}
