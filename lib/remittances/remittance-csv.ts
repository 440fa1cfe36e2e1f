// The denial queue and one remittance's claim lines as CSV downloads: the codes with their words, amounts in cents.
import type { z } from 'zod';
import type { CsvTable } from '../csv/csv-table';
import type { DenialList } from './list-denials';
import type { RemittanceDetail } from './remittance-view';

export const denialsCsv = ({ denials }: z.infer<typeof DenialList>): CsvTable => ({
  filename: 'denials',
  header: [
    'claimId',
    'patientName',
    'status',
    'serviceDate',
    'payerName',
    'totalChargeCents',
    'paidCents',
    'codes',
    'reasons',
    'nextAction',
    'nextActionReason',
    'updatedAt',
  ],
  rows: denials.map((d) => [
    d.claimId,
    d.patientName,
    d.status,
    d.serviceDate,
    d.payerName ?? d.payerId,
    d.totalChargeCents,
    d.paidCents,
    d.codes.map((c) => `${c.group}-${c.reason}`).join(' '),
    d.codes.map((c) => c.description).join('; '),
    d.nextAction,
    d.nextActionReason,
    d.updatedAt,
  ]),
});

/** One record per service line of each CLP (a CLP without lines gets one record), with the claim's codes. */
export const remittanceLinesCsv = (remittance: z.infer<typeof RemittanceDetail>): CsvTable => ({
  filename: `remittance-${remittance.traceNumber}`,
  header: [
    'traceNumber',
    'paymentDate',
    'claimId',
    'patientName',
    'posting',
    'statusCode',
    'statusText',
    'procedureCode',
    'modifiers',
    'units',
    'chargeCents',
    'paidCents',
    'adjustments',
  ],
  rows: remittance.claims.flatMap((claim) => {
    const codes = claim.adjustments.map((a) => `${a.group}-${a.reason} ${a.amountCents}`).join('; ');
    const head = [
      remittance.traceNumber,
      remittance.paymentDate,
      claim.claimId,
      claim.patientName,
      claim.posting,
      claim.statusCode,
    ];
    const lines = claim.lines.length
      ? claim.lines
      : [{ procedureCode: '', modifiers: [], units: null, chargeCents: claim.chargeCents, paidCents: claim.paidCents }];
    return lines.map((line) => [
      ...head,
      claim.statusText,
      line.procedureCode,
      line.modifiers.join(':'),
      line.units,
      line.chargeCents,
      line.paidCents,
      codes,
    ]);
  }),
});
