// Each dashboard panel's numbers as a CSV table: the same rows as the panel's table view, cents as integers.
import type { CsvTable } from '../csv/csv-table';
import type { ArAging } from './read-ar-aging';
import type { CleanClaimRate } from './read-clean-claim-rate';
import type { Collections } from './read-collections';
import type { DaysInAr } from './read-days-in-ar';
import type { DenialRate } from './read-denial-rate';

export const arAgingCsv = (aging: ArAging): CsvTable => ({
  filename: `ar-aging-${aging.asOf}`,
  header: ['payerId', 'payerName', 'claims', '0-30', '31-60', '61-90', '91-120', '120+', 'totalCents'],
  rows: [...aging.payers, { payerId: '', payerName: 'Total', ...aging.totals }].map((p) => [
    p.payerId,
    p.payerName,
    p.claims,
    p.days0to30Cents,
    p.days31to60Cents,
    p.days61to90Cents,
    p.days91to120Cents,
    p.over120Cents,
    p.totalCents,
  ]),
});

export const collectionsCsv = (collections: Collections): CsvTable => ({
  filename: `collections-${collections.from}-${collections.to}`,
  header: ['weekStart', 'payerCents', 'patientCents', 'totalCents'],
  rows: collections.weeks.map((w) => [w.weekStart, w.payerCents, w.patientCents, w.totalCents]),
});

export const denialRateCsv = (denials: DenialRate): CsvTable => ({
  filename: `denials-${denials.from}-${denials.to}`,
  header: ['group', 'reason', 'description', 'claims', 'amountCents'],
  rows: [
    ['', '', 'Claims with a first 835', denials.claimsWithFirstRemittance, ''],
    ['', '', 'Denied in full by it', denials.deniedInFull, ''],
    ...denials.topReasons.map((r) => [r.group, r.reason, r.description, r.claims, r.amountCents]),
  ],
});

export const cleanClaimRateCsv = (rate: CleanClaimRate): CsvTable => ({
  filename: `clean-claims-${rate.from}-${rate.to}`,
  header: ['from', 'to', 'submitted', 'cleanOnFirstPass', 'cleanClaimRate'],
  rows: [[rate.from, rate.to, rate.submitted, rate.cleanOnFirstPass, rate.cleanClaimRate]],
});

export const daysInArCsv = (days: DaysInAr): CsvTable => ({
  filename: `days-in-ar-${days.asOf}`,
  header: ['asOf', 'openArCents', 'charges90DaysCents', 'daysInAr'],
  rows: [[days.asOf, days.openArCents, days.charges90DaysCents, days.daysInAr]],
});
