// DELETE /api/fhir/bulk-status/{jobId}: cancels an export (Bulk Data Access "Delete a Bulk Data Request"): the
// export and its files are deleted and its job cancelled, so the status URL answers 404 from then on. A worker still
// exporting it loses its claim at its next heartbeat (job.signal) and writes nothing (its completion needs the
// export row, which is gone).
import { fromPrisma } from 'pg-boss';
import { requireBoss } from '../../background/boss';
import { keyedJobId } from '../../background/keyed-job-id';
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { BULK_EXPORT_QUEUE } from './run-bulk-export-job';

export async function cancelBulkExport(
  deps: { db: Db },
  input: { clinicId: string; jobId: string },
): Promise<{ jobId: string; status: 'cancelled' }> {
  const boss = await requireBoss();
  const count = await deps.db.$transaction(async (tx) => {
    const deleted = await tx.bulkExportJob.deleteMany({ where: { id: input.jobId, clinicId: input.clinicId } });
    if (deleted.count) {
      await boss.cancel(BULK_EXPORT_QUEUE, keyedJobId(BULK_EXPORT_QUEUE, input.jobId), { db: fromPrisma(tx) });
    }
    return deleted.count;
  });
  if (count === 0) throw new AppError('NOT_FOUND', 'No such export');
  return { jobId: input.jobId, status: 'cancelled' };
}
