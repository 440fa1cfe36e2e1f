// GET /api/bills/{id}/statement's domain: the bill's patient statement as PDF bytes, read and drawn. It carries the
// patient's name and address, so it is logged as a PHI read of that patient before the bytes leave.
import type { Deps } from '../deps';
import { recordPhiAccess } from '../audit/record-phi-access';
import { drawStatementPdf } from './draw-statement-pdf';
import { readPatientStatement } from './read-patient-statement';

export type BillStatement = { billId: string; pdf: Uint8Array };

/** @throws NOT_FOUND (404) unless the bill belongs to the caller's clinic. */
export async function getBillStatement(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: {
    clinicId: string;
    orgId: string;
    userId: string;
    correlationId: string;
    clinicTimeZone: string;
    billId: string;
  },
): Promise<BillStatement> {
  const statement = await readPatientStatement(deps, input);
  const pdf = await drawStatementPdf(statement);
  const { patientId } = statement.patient;
  if (patientId) await recordPhiAccess(deps.db, { ...input, purpose: 'bills.statement' }, [patientId], deps.clock());
  return { billId: statement.billId, pdf };
}
