// GET /api/fhir/bulk-files/{fileId}: one NDJSON output (or error) file of a finished export, for a signed-in
// user of the export's clinic (the manifest says requiresAccessToken: true). Returns the file's NDJSON text.
import type { Db } from '../../db';
import { AppError } from '../../errors';

export async function readBulkExportFile(
  deps: { db: Db },
  input: { clinicId: string; fileId: string },
): Promise<string> {
  const file = await deps.db.bulkExportFile.findFirst({
    where: { id: input.fileId, job: { clinicId: input.clinicId } },
    select: { ndjson: true },
  });
  if (!file) throw new AppError('NOT_FOUND', 'No such export file');
  return file.ndjson;
}
