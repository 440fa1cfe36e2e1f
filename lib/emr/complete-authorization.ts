// GET /api/emr-sync/callback: finishes the browser authorization. Order matters (SPEC "OAuth state value"):
// the state is looked up by its hash and checked against the caller (another clinic's or user's state is 403 and
// stays usable), the token endpoint is resolved without network (503 leaves the state untouched), then the state
// is consumed by ONE conditional update (unused, unexpired, same clinic and user) before any network call, so of
// any number of concurrent callbacks exactly one reaches the token endpoint. Only then is the code exchanged with
// the PKCE verifier and the tokens sealed.
import { z } from 'zod';
import type { Clock } from '../clock';
import { requireSealKey, type Config } from '../config';
import { seal, unseal } from '../crypto/seal';
import type { Db } from '../db';
import { AppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import type { Egress } from '../outbound/egress';
import { planTokenEndpoint, redirectUriFor, resolveTokenEndpoint } from './oauth-endpoints';
import { hashState, verifierSealContext } from './start-authorization';
import { exchangeAuthorizationCode } from './token-client';

export const CallbackQuery = z.object({
  state: z.string().min(1).max(512),
  code: z.string().min(1).max(4096).optional(),
  // RFC 6749 section 4.1.2.1: the EMR's refusal comes back as `error` instead of `code`.
  error: z.string().max(200).optional(),
});
export type CallbackQuery = z.infer<typeof CallbackQuery>;

export const CallbackResult = z.object({
  connectionId: z.string(),
  vendor: z.string(),
  status: z.literal('connected'),
});
export type CallbackResult = z.infer<typeof CallbackResult>;

export const accessTokenSealContext = (connectionId: string) => `emr-access-token:${connectionId}`;
export const refreshTokenSealContext = (connectionId: string) => `emr-refresh-token:${connectionId}`;

const invalidState = () =>
  new AppError(
    'VALIDATION_FAILED',
    'The authorization state is invalid, expired or already used; start the connection again',
    {
      issues: [{ path: 'query.state', message: 'Unknown, expired or already used' }],
    },
  );

export async function completeAuthorization(
  deps: { db: Db; clock: Clock; config: Config; egress: Egress },
  input: CallbackQuery & { clinicId: string; userId: string; correlationId: string },
): Promise<CallbackResult> {
  const stateHash = hashState(input.state);
  const pending = await deps.db.oAuthState.findUnique({ where: { stateHash } });
  if (!pending) throw invalidState();
  if (pending.clinicId !== input.clinicId)
    throw new AppError('FORBIDDEN', 'This authorization was started in another clinic');
  if (pending.userId !== input.userId)
    throw new AppError('FORBIDDEN', 'This authorization was started by another user');
  const connection = await deps.db.emrConnection.findFirst({
    where: { id: pending.connectionId, clinicId: input.clinicId },
  });
  if (!connection?.clientId) throw invalidState();
  const tokenPlan = planTokenEndpoint(connection, deps.config);
  const sealKey = requireSealKey(deps.config);

  const now = deps.clock();
  const consumed = await deps.db.oAuthState.updateMany({
    where: { stateHash, clinicId: input.clinicId, userId: input.userId, consumedAt: null, expiresAt: { gt: now } },
    data: { consumedAt: now },
  });
  if (consumed.count !== 1) throw invalidState();

  if (!input.code) {
    const reason = input.error && /^[a-z_]{1,64}$/.test(input.error) ? ` (${input.error})` : '';
    throw new AppError('VALIDATION_FAILED', `The EMR did not authorize the connection${reason}`, {
      issues: [{ path: 'query.code', message: 'Required' }],
    });
  }
  const codeVerifier = unseal(pending.codeVerifierSealed, sealKey, verifierSealContext(stateHash));
  const { tokenUrl, target } = await resolveTokenEndpoint(tokenPlan, deps.egress);
  const tokens = await exchangeAuthorizationCode({
    egress: deps.egress,
    target,
    tokenUrl,
    clientId: connection.clientId,
    code: input.code,
    redirectUri: redirectUriFor(deps.config.appUrl),
    codeVerifier,
  });

  const connectedAt = deps.clock();
  await deps.db.$transaction(async (tx) => {
    await tx.emrConnection.update({
      where: { id: connection.id, clinicId: input.clinicId },
      data: {
        status: 'connected',
        accessTokenSealed: seal(tokens.accessToken, sealKey, accessTokenSealContext(connection.id)),
        refreshTokenSealed: tokens.refreshToken
          ? seal(tokens.refreshToken, sealKey, refreshTokenSealContext(connection.id))
          : null,
        tokenExpiresAt:
          tokens.expiresIn !== undefined ? new Date(connectedAt.getTime() + tokens.expiresIn * 1000) : null,
        grantedScope: tokens.scope ?? null,
        // SMART launch context: a browser pull reads this patient's compartment (pull-browser-connection.ts).
        launchPatientId: tokens.patient ?? null,
        lastError: null,
        connectedAt,
      },
    });
    await recordAudit(tx, {
      action: 'emr.connection.connect',
      outcome: 'success',
      correlationId: input.correlationId,
      userId: input.userId,
      clinicId: input.clinicId,
      detail: { connectionId: connection.id, vendor: connection.vendor, grantedScope: tokens.scope ?? null },
    });
  });
  return { connectionId: connection.id, vendor: connection.vendor, status: 'connected' };
}
