// POST /api/emr-sync/connections: a new EMR connection for the caller's clinic. With a client id it is
// `pending` (ready to authorize); without one it is `needs-registration` (SPEC "EMR connection" states). An
// optional name is what staff call it on the integrations screen.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { EMR_VENDOR_KINDS, type Config } from '../config';
import type { Db } from '../db';
import { recordAudit } from '../audit/record-audit';
import { EmrConnectionView, toConnectionView } from './connection-view';
import { assertFhirBaseUrlAllowed, assertSmartBackendBaseUrl, FhirBaseUrl } from './fhir-base-url';

export const ClientId = z.string().trim().min(1).max(200);
/** What staff call a connection; an empty name clears it (PATCH). */
export const ConnectionName = z.string().trim().max(100, { message: 'Use at most 100 characters' });

export const CreateConnectionBody = z.object({
  vendor: z.enum(EMR_VENDOR_KINDS, { message: `vendor must be one of ${EMR_VENDOR_KINDS.join(', ')}` }),
  clientId: ClientId.optional(),
  fhirBaseUrl: FhirBaseUrl.optional(),
  name: ConnectionName.optional(),
});
export type CreateConnectionBody = z.infer<typeof CreateConnectionBody>;

export const ConnectionEnvelope = z.object({ connection: EmrConnectionView });

export async function createConnection(
  deps: { db: Db; config: Config },
  input: CreateConnectionBody & { clinicId: string; userId: string; correlationId: string },
): Promise<z.infer<typeof ConnectionEnvelope>> {
  assertFhirBaseUrlAllowed(input.fhirBaseUrl, deps.config.mode);
  assertSmartBackendBaseUrl(input.fhirBaseUrl, input.vendor, deps.config);
  const row = await deps.db.$transaction(async (tx) => {
    const created = await tx.emrConnection.create({
      data: {
        id: `emr_${randomBytes(12).toString('base64url')}`,
        clinicId: input.clinicId,
        vendor: input.vendor,
        status: input.clientId ? 'pending' : 'needs-registration',
        clientId: input.clientId ?? null,
        fhirBaseUrl: input.fhirBaseUrl ?? null,
        name: input.name || null,
      },
    });
    await recordAudit(tx, {
      action: 'emr.connection.create',
      outcome: 'success',
      correlationId: input.correlationId,
      userId: input.userId,
      clinicId: input.clinicId,
      detail: { connectionId: created.id, vendor: created.vendor, status: created.status },
    });
    return created;
  });
  return { connection: toConnectionView(row, deps.config) };
}
