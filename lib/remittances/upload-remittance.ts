// The staff upload: post the interchange for the caller's clinic and audit who posted what.
import type { Deps } from '../deps';
import { recordAudit } from '../audit/record-audit';
import { AppError } from '../errors';
import type { X12Text } from '../x12/x12-text';
import { ingestRemittance, type IngestResult } from './ingest-remittance';

type Actor = { clinicId: string; orgId: string; userId: string; correlationId: string };

export async function uploadRemittance(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { actor: Actor; x12: X12Text },
): Promise<IngestResult & { correlationId: string }> {
  const { actor } = input;
  const audit = {
    userId: actor.userId,
    orgId: actor.orgId,
    clinicId: actor.clinicId,
    correlationId: actor.correlationId,
  };
  try {
    const result = await ingestRemittance(deps, {
      clinicId: actor.clinicId,
      x12: input.x12,
      source: 'upload',
      correlationId: actor.correlationId,
    });
    await recordAudit(deps.db, {
      ...audit,
      action: 'remittance.upload',
      outcome: 'success',
      detail: {
        remittances: result.remittances.map((r) => ({ id: r.remittanceId, duplicate: r.duplicate })),
      },
    });
    return { ...result, correlationId: actor.correlationId };
  } catch (error) {
    if (error instanceof AppError && error.code === 'UNPROCESSABLE') {
      await recordAudit(deps.db, {
        ...audit,
        action: 'remittance.upload',
        outcome: 'refused',
        detail: { reason: error.message },
      });
    }
    throw error;
  }
}
