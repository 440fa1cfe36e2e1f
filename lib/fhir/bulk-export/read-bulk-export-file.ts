// GET /api/fhir/bulk-files/{fileId}: one NDJSON output (or error) file of a finished export, for a signed-in
// user of the export's clinic (the manifest says requiresAccessToken: true).
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { FHIR_NDJSON } from '../fhir-json';

export async function readBulkExportFile(deps: { db: Db }, input: { clinicId: string; fileId: string }): Promise<Response> {
  const file = await deps.db.bulkExportFile.findFirst({
    where: { id: input.fileId, job: { clinicId: input.clinicId } },
    select: { ndjson: true },
  });
  if (!file) throw new AppError('NOT_FOUND', 'No such export file');
  return new Response(file.ndjson, { headers: { 'content-type': FHIR_NDJSON, 'cache-control': 'no-store' } });
}
