// GET /api/emr-sync/authorize: starts the browser authorization-code flow (SMART App Launch v2) for one of the
// clinic's connections: mints a single-use state (256 bits, 15 minutes, bound to clinic, user and connection;
// only its sha256 is stored) and a PKCE S256 pair (the verifier sealed at rest), and returns the EMR's authorize
// URL to send the browser to (the edge answers 302 with it).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock';
import { requireSealKey, type Config } from '../config';
import { seal } from '../crypto/seal';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { Egress } from '../outbound/egress';
import { buildAuthorizeUrl } from './authorize-url';
import { getClinicConnection } from './connection-view';
import { BROWSER_OAUTH_SCOPE, redirectUriFor, resolveAuthorizeEndpoint } from './oauth-endpoints';
import { createPkcePair, randomState } from './pkce';

export const OAUTH_STATE_TTL_MS = 15 * 60 * 1000;
// Spent and expired states are kept a day (for the record), then deleted by later authorizations.
const STATE_RETENTION_MS = 24 * 60 * 60 * 1000;

export const AuthorizeQuery = z.object({ connectionId: z.string().min(1).max(100) });

export type AuthorizationStarted = { authorizeUrl: string };

export const hashState = (state: string) => createHash('sha256').update(state, 'utf8').digest('hex');
export const verifierSealContext = (stateHash: string) => `oauth-verifier:${stateHash}`;

export async function startAuthorization(
  deps: { db: Db; clock: Clock; config: Config; egress: Egress },
  input: { clinicId: string; userId: string; connectionId: string },
): Promise<AuthorizationStarted> {
  const connection = await getClinicConnection(
    deps.db,
    { clinicId: input.clinicId, id: input.connectionId },
    {
      foreign: new AppError('FORBIDDEN', 'This connection belongs to another clinic'),
    },
  );
  if (!connection.clientId) {
    throw new AppError('FORBIDDEN', 'Add the client id the EMR issued for this clinic before connecting');
  }
  const sealKey = requireSealKey(deps.config);
  const { authorizationEndpoint, aud } = await resolveAuthorizeEndpoint(connection, deps.config, deps.egress);

  const now = deps.clock();
  const state = randomState();
  const stateHash = hashState(state);
  const { codeVerifier, codeChallenge } = createPkcePair();
  await deps.db.oAuthState.create({
    data: {
      stateHash,
      clinicId: input.clinicId,
      userId: input.userId,
      connectionId: connection.id,
      codeVerifierSealed: seal(codeVerifier, sealKey, verifierSealContext(stateHash)),
      expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_MS),
    },
  });
  await deps.db.oAuthState.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - STATE_RETENTION_MS) } } });

  const authorizeUrl = buildAuthorizeUrl({
    authorizationEndpoint,
    clientId: connection.clientId,
    redirectUri: redirectUriFor(deps.config.appUrl),
    scope: BROWSER_OAUTH_SCOPE,
    state,
    codeChallenge,
    aud,
  });
  return { authorizeUrl };
}
