// DELETE /api/fhir/bulk-status/{jobId}: cancels an export (Bulk Data Access "Delete a Bulk Data Request"): the
// export, its files and its job are deleted, so the status URL answers 404 from then on. A worker still exporting
// it loses its lease at the next heartbeat and writes nothing (its completion is conditioned on the lease).
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { BULK_EXPORT_QUEUE } from './run-bulk-export-job';

export async function cancelBulkExport(
  deps: { db: Db },
  input: { clinicId: string; jobId: string },
): Promise<{ jobId: string; status: 'cancelled' }> {
  const count = await deps.db.$transaction(async (tx) => {
    const deleted = await tx.bulkExportJob.deleteMany({ where: { id: input.jobId, clinicId: input.clinicId } });
    if (deleted.count) await tx.job.deleteMany({ where: { queue: BULK_EXPORT_QUEUE, key: input.jobId } });
    return deleted.count;
  });
  if (count === 0) throw new AppError('NOT_FOUND', 'No such export');
  return { jobId: input.jobId, status: 'cancelled' };
}
