// EMR sync: connections, the browser OAuth round trip (SMART App Launch v2), the SMART Backend Services and
// partner pulls, and the JWK Set EMRs use to verify our client assertions.
import { z } from 'zod';
import { endpoint } from '../endpoint';
import { CallbackQuery, CallbackResult } from './complete-authorization';
import { ConnectionEnvelope, CreateConnectionBody } from './create-connection';
import { ConnectionList } from './list-connections';
import { ConnectionPullQuery } from './pull-connection';
import { QueuedPull } from './pull-job';
import { PartnerPullBody, PartnerPullResult } from './pull-partner';
import { SmartPullBody } from './pull-smart-backend';
import { PullResult } from './run-pull';
import { AuthorizeQuery } from './start-authorization';
import { UpdateConnectionBody } from './update-connection';
import { SyncRunView } from './sync-run-view';

const tags = ['emr-sync'];
// The callback URL carries the authorization code: no Referer may take it (or the state) to another site.
const NO_REFERRER = { 'referrer-policy': 'no-referrer' };

export const listConnectionsEndpoint = endpoint({
  method: 'GET',
  path: '/api/emr-sync/connections',
  summary: "The clinic's EMR connections (never a client id, secret or token)",
  tags,
  auth: 'session',
  scope: 'integrations:read',
  response: ConnectionList,
});

export const createConnectionEndpoint = endpoint({
  method: 'POST',
  path: '/api/emr-sync/connections',
  summary:
    'Create an EMR connection (optionally named): pending with a client id, needs-registration without. Step-up: ' +
    "it decides where the clinic's patient data comes from",
  tags,
  auth: 'session',
  scope: 'integrations:read',
  stepUp: true,
  body: CreateConnectionBody,
  response: ConnectionEnvelope,
  successStatus: 201,
});

export const updateConnectionEndpoint = endpoint({
  method: 'PATCH',
  path: '/api/emr-sync/connections/{id}',
  summary:
    'Rename the connection (name; "" clears it), or add or change the client id (needs-registration -> pending) or the FHIR base URL (either drops its tokens)',
  tags,
  auth: 'session',
  scope: 'integrations:read',
  params: z.object({ id: z.string().min(1).max(100) }),
  body: UpdateConnectionBody,
  response: ConnectionEnvelope,
  errors: ['NOT_FOUND'],
});

export const deleteConnectionEndpoint = endpoint({
  method: 'DELETE',
  path: '/api/emr-sync/connections/{id}',
  summary: 'Delete an EMR connection and its tokens (step-up, audited; its pull history and pulled resources stay)',
  tags,
  auth: 'session',
  scope: 'integrations:read',
  stepUp: true,
  params: z.object({ id: z.string().min(1).max(100) }),
  successStatus: 204,
  errors: ['NOT_FOUND'],
});

export const authorizeEndpoint = endpoint({
  method: 'GET',
  path: '/api/emr-sync/authorize',
  tags,
  auth: 'session',
  query: AuthorizeQuery,
  headers: NO_REFERRER,
  summary:
    'Start the browser authorization: 302 to the EMR with response_type=code, client_id, redirect_uri, scope, state, PKCE S256 and aud',
  successStatus: 302,
  errors: ['NOT_FOUND', 'TRANSPORT_FAILED'],
});

export const callbackEndpoint = endpoint({
  method: 'GET',
  path: '/api/emr-sync/callback',
  tags,
  auth: 'session',
  scope: 'integrations:read',
  query: CallbackQuery,
  headers: NO_REFERRER,
  summary:
    'Finish the browser authorization: the single-use state is consumed, the code exchanged with the PKCE verifier',
  response: CallbackResult,
  errors: ['TRANSPORT_FAILED', 'UNPROCESSABLE'],
  redirect:
    'A browser (Accept: text/html) is sent back to /settings/integrations?oauth=connected|failed with the outcome',
});

export const smartPullEndpoint = endpoint({
  method: 'POST',
  path: '/api/emr-sync/smart/pull',
  tags,
  auth: 'session',
  scope: 'integrations:read',
  body: SmartPullBody,
  response: PullResult,
  summary:
    'SMART Backend Services pull of Patient, Encounter, Observation, Condition, MedicationRequest and AllergyIntolerance into the FHIR store',
  errors: ['NOT_CONFIGURED', 'TRANSPORT_FAILED', 'UNPROCESSABLE'],
});

export const partnerPullEndpoint = endpoint({
  method: 'POST',
  path: '/api/emr-sync/partner/pull',
  tags,
  auth: 'session',
  scope: 'integrations:read',
  body: PartnerPullBody,
  response: PartnerPullResult,
  summary: 'Partner API pull of one day or a range of at most 31 days into the FHIR store',
  errors: ['NOT_CONFIGURED', 'TRANSPORT_FAILED'],
});

export const jwksEndpoint = endpoint({
  method: 'GET',
  path: '/.well-known/jwks.json',
  tags,
  auth: 'public',
  produces: 'application/jwk-set+json',
  summary: 'Our SMART Backend Services public key as a JWK Set (404 when SMART is not configured)',
  errors: ['NOT_FOUND'],
  response: z.object({ keys: z.array(z.record(z.string(), z.string())) }),
});

export const connectionPullEndpoint = endpoint({
  method: 'POST',
  path: '/api/emr-sync/connections/{id}/pull',
  tags,
  auth: 'session',
  scope: 'integrations:read',
  params: z.object({ id: z.string().min(1).max(100) }),
  query: ConnectionPullQuery,
  response: PullResult,
  accepted: {
    response: QueuedPull,
    description:
      'A smart-backend connection: the pull is queued as a job (an export may take hours); follow it at ' +
      'GET /api/emr-sync/runs/{syncRunId} (the Location header), cancel it with POST /api/emr-sync/runs/{id}/cancel',
  },
  summary:
    "Pull now, for any connection: a smart-backend connection exports its clinic's bound Group as a job (202 with the run id, after the 501/403/400 checks); a browser connection reads the patient compartment it was authorized for (its token refreshed first when due) and answers 200 with the counts. Optional ?since= (else, for a browser connection, the last run's nextSince)",
  errors: ['NOT_FOUND', 'NOT_CONFIGURED', 'TRANSPORT_FAILED', 'UNPROCESSABLE', 'FORBIDDEN', 'VALIDATION_FAILED'],
});

export const syncRunEndpoint = endpoint({
  method: 'GET',
  path: '/api/emr-sync/runs/{id}',
  tags,
  auth: 'session',
  scope: 'integrations:read',
  params: z.object({ id: z.string().min(1).max(100) }),
  response: SyncRunView,
  summary:
    "One pull's run: status (queued, running, cancelling, succeeded, failed, cancelled), progress { phase, files, filesDone, resources } while it runs, counts and the error when it ends (another clinic's run is 404)",
  errors: ['NOT_FOUND'],
});

export const cancelSyncRunEndpoint = endpoint({
  method: 'POST',
  path: '/api/emr-sync/runs/{id}/cancel',
  tags,
  auth: 'session',
  scope: 'integrations:read',
  params: z.object({ id: z.string().min(1).max(100) }),
  response: SyncRunView,
  summary:
    "Cancel a pull that has not finished (audited): a queued one is cancelled at once; a running one becomes cancelling and its worker stops, DELETEs the EHR's export and saves nothing (then cancelled). A finished one is 409; another clinic's is 404",
  errors: ['NOT_FOUND', 'NOT_EXECUTABLE'],
});

export const emrEndpoints = [
  listConnectionsEndpoint,
  createConnectionEndpoint,
  updateConnectionEndpoint,
  deleteConnectionEndpoint,
  authorizeEndpoint,
  callbackEndpoint,
  smartPullEndpoint,
  partnerPullEndpoint,
  jwksEndpoint,
  connectionPullEndpoint,
  syncRunEndpoint,
  cancelSyncRunEndpoint,
];
