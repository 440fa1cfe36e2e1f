// The claims work queue as a CSV download: one record per claim, the columns the queue shows plus its money.
import type { z } from 'zod';
import type { CsvTable } from '../csv/csv-table';
import type { ClaimList } from './list-claims';

export const claimsCsv = ({ claims }: z.infer<typeof ClaimList>): CsvTable => ({
  filename: 'claims',
  header: [
    'claimId',
    'patientId',
    'patientName',
    'status',
    'statusReason',
    'serviceDate',
    'payerId',
    'payerName',
    'totalChargeCents',
    'paidCents',
    'patientResponsibilityCents',
    'adjustmentCents',
    'submittedAt',
  ],
  rows: claims.map((c) => [
    c.claimId,
    c.patientId,
    c.patientName,
    c.status,
    c.statusReason,
    c.serviceDate,
    c.payerId,
    c.payerName,
    c.totalChargeCents,
    c.paidCents,
    c.patientResponsibilityCents,
    c.adjustmentCents,
    c.submittedAt,
  ]),
});
