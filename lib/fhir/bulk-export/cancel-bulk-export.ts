// DELETE /api/fhir/bulk-status/{jobId}: cancels an export (Bulk Data Access "Delete a Bulk Data Request"): the
// job and its files are deleted, so the status URL answers 404 from then on. A worker still exporting it notices
// at its next lease check and writes nothing.
import type { Db } from '../../db';
import { AppError } from '../../http/errors';
import { accepted } from '../../http/responses';

export async function cancelBulkExport(deps: { db: Db }, input: { clinicId: string; jobId: string }): Promise<Response> {
  const { count } = await deps.db.bulkExportJob.deleteMany({ where: { id: input.jobId, clinicId: input.clinicId } });
  if (count === 0) throw new AppError('NOT_FOUND', 'No such export');
  return accepted({ jobId: input.jobId, status: 'cancelled' });
}
