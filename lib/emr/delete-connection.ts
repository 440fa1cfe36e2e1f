// DELETE /api/emr-sync/connections/{id}: removes one of the clinic's EMR connections, its tokens with it (they live
// on the row) and any authorization still in flight for it. Its pull history (SyncRun) and the FHIR resources it
// brought stay: they are the clinic's records, not the connection's. Another clinic's connection is 404.
import type { Db } from '../db';
import { recordAudit } from '../audit/record-audit';
import { getClinicConnection } from './connection-view';

export async function deleteConnection(
  deps: { db: Db },
  input: { clinicId: string; orgId: string; id: string; userId: string; correlationId: string },
): Promise<void> {
  const current = await getClinicConnection(deps.db, { clinicId: input.clinicId, id: input.id });
  await deps.db.$transaction(async (tx) => {
    await tx.oAuthState.deleteMany({ where: { connectionId: current.id } });
    await tx.emrConnection.delete({ where: { id: current.id, clinicId: input.clinicId } });
    await recordAudit(tx, {
      action: 'emr.connection.delete',
      outcome: 'success',
      correlationId: input.correlationId,
      userId: input.userId,
      orgId: input.orgId,
      clinicId: input.clinicId,
      detail: { connectionId: current.id, vendor: current.vendor, hadTokens: !!current.accessTokenSealed },
    });
  });
}
