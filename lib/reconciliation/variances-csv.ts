// The clinic's reconciliation variances as a CSV download (the waiting pairs are not variances and stay out).
import type { z } from 'zod';
import type { CsvTable } from '../csv/csv-table';
import type { VarianceList } from './list-variances';

export const variancesCsv = ({ variances }: z.infer<typeof VarianceList>): CsvTable => ({
  filename: 'variances',
  header: [
    'day',
    'kind',
    'reference',
    'ledgerCents',
    'fboCents',
    'railCents',
    'eraCents',
    'depositCents',
    'claimId',
    'note',
    'detectedAt',
  ],
  rows: variances.map((v) => [
    v.day,
    v.kind,
    v.reference,
    v.ledgerCents,
    v.fboCents,
    v.railCents,
    v.eraCents,
    v.depositCents,
    v.claimId,
    v.note,
    v.detectedAt,
  ]),
});
