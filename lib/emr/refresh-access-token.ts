// A browser connection's access token, fresh enough to use: when it expires within a minute, it is refreshed with
// the stored refresh token at the same token endpoint the connection authorized with (EMR_VENDORS, or discovery
// from the connection's own FHIR base), through the egress client. When the EMR refuses the refresh (invalid_grant
// with any status, a revoked client) or no refresh token was granted, the connection becomes
// `needs-reauthorization` with the reason in words (`lastError`, for the integrations screen), its tokens are
// cleared, and the caller gets UNPROCESSABLE telling the user to connect again (DECISIONS "Security
// findings of 2026-11-28", EMR pulls). A transport failure changes nothing: the EMR may be back in a minute, and the
// grant may still be good.
import type { Clock } from '../clock';
import { requireSealKey, type Config } from '../config';
import { seal, unseal } from '../crypto/seal';
import type { Db } from '../db';
import { AppError, isAppError } from '../errors';
import { recordAudit } from '../audit/record-audit';
import type { Egress } from '../outbound/egress';
import { accessTokenSealContext, refreshTokenSealContext } from './complete-authorization';
import type { ConnectionRow } from './connection-view';
import { planTokenEndpoint, resolveTokenEndpoint } from './oauth-endpoints';
import { refreshAccessToken } from './token-client';

/** Refresh when the token has less than this left, so it cannot expire in the middle of a pull's first calls. */
export const REFRESH_MARGIN_MS = 60_000;

export const NEEDS_REAUTHORIZATION = 'needs-reauthorization';

type Deps = { db: Db; clock: Clock; config: Config; egress: Egress };

/**
 * The connection's usable access token. Throws UNPROCESSABLE (after marking the connection
 * needs-reauthorization) when it has none or the EMR refused the refresh; TRANSPORT_FAILED when the EMR could not be
 * reached.
 */
export async function refreshAccessTokenIfDue(
  deps: Deps,
  connection: ConnectionRow,
  context: { correlationId: string; userId?: string },
): Promise<string> {
  const sealKey = requireSealKey(deps.config);
  if (!connection.accessTokenSealed || !connection.clientId)
    throw new AppError('UNPROCESSABLE', 'This connection is not authorized; connect it first');
  const now = deps.clock();
  const isDue = connection.tokenExpiresAt && connection.tokenExpiresAt.getTime() - now.getTime() < REFRESH_MARGIN_MS;
  if (!isDue) return unseal(connection.accessTokenSealed, sealKey, accessTokenSealContext(connection.id));

  if (!connection.refreshTokenSealed) {
    return needsAuthorization(
      deps,
      connection,
      context,
      'The EMR access expired and no refresh token was granted; connect again',
    );
  }
  const refreshToken = unseal(connection.refreshTokenSealed, sealKey, refreshTokenSealContext(connection.id));
  const { tokenUrl, target } = await resolveTokenEndpoint(planTokenEndpoint(connection, deps.config), deps.egress);
  let tokens;
  try {
    tokens = await refreshAccessToken({
      egress: deps.egress,
      target,
      tokenUrl,
      clientId: connection.clientId,
      refreshToken,
    });
  } catch (error) {
    if (isAppError(error) && error.code === 'UNPROCESSABLE')
      return needsAuthorization(deps, connection, context, 'The EMR refused to renew the access; connect again');
    throw error;
  }
  const refreshedAt = deps.clock();
  await deps.db.emrConnection.update({
    where: { id: connection.id, clinicId: connection.clinicId },
    data: {
      accessTokenSealed: seal(tokens.accessToken, sealKey, accessTokenSealContext(connection.id)),
      // No refresh token in the answer: the old one stays good (RFC 6749 section 6).
      ...(tokens.refreshToken && {
        refreshTokenSealed: seal(tokens.refreshToken, sealKey, refreshTokenSealContext(connection.id)),
      }),
      tokenExpiresAt: tokens.expiresIn !== undefined ? new Date(refreshedAt.getTime() + tokens.expiresIn * 1000) : null,
      ...(tokens.scope !== undefined && { grantedScope: tokens.scope }),
      ...(tokens.patient !== undefined && { launchPatientId: tokens.patient }),
      lastError: null,
    },
  });
  return tokens.accessToken;
}

async function needsAuthorization(
  deps: Deps,
  connection: ConnectionRow,
  context: { correlationId: string; userId?: string },
  reason: string,
): Promise<never> {
  await deps.db.$transaction(async (tx) => {
    await tx.emrConnection.update({
      where: { id: connection.id, clinicId: connection.clinicId },
      data: {
        status: NEEDS_REAUTHORIZATION,
        lastError: reason,
        accessTokenSealed: null,
        refreshTokenSealed: null,
        tokenExpiresAt: null,
      },
    });
    await recordAudit(tx, {
      action: 'emr.connection.refresh',
      outcome: 'failure',
      correlationId: context.correlationId,
      userId: context.userId ?? null,
      clinicId: connection.clinicId,
      detail: { connectionId: connection.id, vendor: connection.vendor, reason },
    });
  });
  throw new AppError('UNPROCESSABLE', reason);
}
