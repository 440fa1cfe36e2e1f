// GET /api/fhir/bulk-files/{fileId}: one NDJSON output (or error) file of a finished export, for a signed-in
// user of the export's clinic (the manifest says requiresAccessToken: true). Returns the file's NDJSON text, after
// logging every patient in it in the PHI access log (purpose fhir.bulk-export.download): each download is a read.
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { recordFhirPhiAccess, type PhiAccess } from '../../audit/record-phi-access';
import { phiReferencesOf } from '../phi-references';
import type { FhirResource } from '../types';

export async function readBulkExportFile(
  deps: { db: Db; clock: Clock },
  input: { reader: Omit<PhiAccess, 'purpose'>; fileId: string },
): Promise<string> {
  const { reader } = input;
  const file = await deps.db.bulkExportFile.findFirst({
    where: { id: input.fileId, job: { clinicId: reader.clinicId } },
    select: { ndjson: true },
  });
  if (!file) throw new AppError('NOT_FOUND', 'No such export file');
  await recordFhirPhiAccess(
    deps.db,
    { ...reader, purpose: 'fhir.bulk-export.download' },
    phiReferencesOf(resourcesOf(file.ndjson)),
    deps.clock(),
  );
  return file.ndjson;
}

/** The resources of an export file (our own NDJSON: one resource per line; an error file's OperationOutcomes too). */
function* resourcesOf(ndjson: string): Generator<FhirResource> {
  for (const line of ndjson.split('\n')) if (line.trim()) yield JSON.parse(line) as FhirResource;
}
