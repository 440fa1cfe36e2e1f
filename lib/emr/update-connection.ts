// PATCH /api/emr-sync/connections/{id}: register a client id (needs-registration -> pending) or change the
// connection's FHIR base. Changing either on a connection that holds tokens drops them: they were issued to the
// old registration or server, so the connection must be authorized again.
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db';
import { recordAudit } from '../audit/record-audit';
import { getClinicConnection, toConnectionView } from './connection-view';
import { ClientId, type ConnectionEnvelope } from './create-connection';
import { assertFhirBaseUrlAllowed, assertSmartBackendBaseUrl, FhirBaseUrl } from './fhir-base-url';

export const UpdateConnectionBody = z
  .object({ clientId: ClientId.optional(), fhirBaseUrl: FhirBaseUrl.optional() })
  .refine((body) => body.clientId !== undefined || body.fhirBaseUrl !== undefined, {
    message: 'Give clientId or fhirBaseUrl',
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
  const changed = clientId !== current.clientId || fhirBaseUrl !== current.fhirBaseUrl;
  if (!changed) return { connection: toConnectionView(current, deps.config) };

  const row = await deps.db.$transaction(async (tx) => {
    const updated = await tx.emrConnection.update({
      where: { id: current.id, clinicId: input.clinicId },
      data: {
        clientId,
        fhirBaseUrl,
        status: clientId ? 'pending' : 'needs-registration',
        accessTokenSealed: null,
        refreshTokenSealed: null,
        tokenExpiresAt: null,
        grantedScope: null,
        connectedAt: null,
      },
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
        status: updated.status,
      },
    });
    return updated;
  });
  return { connection: toConnectionView(row, deps.config) };
}
