// PATCH /api/emr-sync/connections/{id}: register a client id (needs-registration -> pending), change the
// connection's FHIR base, or rename it. Changing the client id or FHIR base on a connection that holds tokens
// drops them: they were issued to the old registration or server, so the connection must be authorized again. A
// new name changes nothing else.
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db';
import { recordAudit } from '../audit/record-audit';
import { findLastRuns, getClinicConnection, toConnectionView } from './connection-view';
import { ClientId, ConnectionName, type ConnectionEnvelope } from './create-connection';
import { assertFhirBaseUrlAllowed, assertSmartBackendBaseUrl, FhirBaseUrl } from './fhir-base-url';

export const UpdateConnectionBody = z
  .object({ clientId: ClientId.optional(), fhirBaseUrl: FhirBaseUrl.optional(), name: ConnectionName.optional() })
  .refine((body) => body.clientId !== undefined || body.fhirBaseUrl !== undefined || body.name !== undefined, {
    message: 'Give clientId, fhirBaseUrl or name',
    path: ['clientId'],
  });
export type UpdateConnectionBody = z.infer<typeof UpdateConnectionBody>;

export async function updateConnection(
  deps: { db: Db; config: Config },
  input: UpdateConnectionBody & { clinicId: string; id: string; userId: string; correlationId: string },
): Promise<z.infer<typeof ConnectionEnvelope>> {
  assertFhirBaseUrlAllowed(input.fhirBaseUrl, deps.config.mode);
  const current = await getClinicConnection(deps.db, { clinicId: input.clinicId, id: input.id });
  assertSmartBackendBaseUrl(input.fhirBaseUrl, current.vendor, deps.config);
  const clientId = input.clientId ?? current.clientId;
  const fhirBaseUrl = input.fhirBaseUrl ?? current.fhirBaseUrl;
  const name = input.name === undefined ? current.name : input.name || null;
  const registrationChanged = clientId !== current.clientId || fhirBaseUrl !== current.fhirBaseUrl;
  const lastRun = (await findLastRuns(deps.db, input.clinicId, [current.id])).get(current.id) ?? null;
  if (!registrationChanged && name === current.name)
    return { connection: toConnectionView(current, deps.config, lastRun) };

  const row = await deps.db.$transaction(async (tx) => {
    const updated = await tx.emrConnection.update({
      where: { id: current.id, clinicId: input.clinicId },
      data: registrationChanged
        ? {
            name,
            clientId,
            fhirBaseUrl,
            status: clientId ? 'pending' : 'needs-registration',
            accessTokenSealed: null,
            refreshTokenSealed: null,
            tokenExpiresAt: null,
            grantedScope: null,
            connectedAt: null,
            lastError: null,
          }
        : { name },
    });
    await recordAudit(tx, {
      action: 'emr.connection.update',
      outcome: 'success',
      correlationId: input.correlationId,
      userId: input.userId,
      clinicId: input.clinicId,
      detail: {
        connectionId: updated.id,
        clientIdChanged: clientId !== current.clientId,
        fhirBaseUrlChanged: fhirBaseUrl !== current.fhirBaseUrl,
        nameChanged: name !== current.name,
        status: updated.status,
      },
    });
    return updated;
  });
  return { connection: toConnectionView(row, deps.config, lastRun) };
}
