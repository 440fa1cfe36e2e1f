// The revenue dashboard: one read per panel, all computed in the database in the clinic's time zone, each also a
// CSV download (`?format=csv`). The dashboard shows claims and money, so each needs claims:read and svcpay:read.
import { z } from 'zod';
import { CSV_TYPE, CsvRecord } from '../csv/csv-table';
import { endpoint, type Endpoint } from '../endpoint';
import { AsOfQuery, DashboardQuery } from './dashboard-period';
import { ArAging } from './read-ar-aging';
import { CleanClaimRate } from './read-clean-claim-rate';
import { Collections } from './read-collections';
import { DaysInAr } from './read-days-in-ar';
import { DenialRate } from './read-denial-rate';

const panel = <Q extends z.ZodType, R extends z.ZodType>(path: string, summary: string, query: Q, response: R) =>
  endpoint({
    method: 'GET',
    path: `/api/dashboard/${path}`,
    tags: ['dashboard'],
    summary: `${summary}. With ?format=csv: the same numbers as a streamed text/csv download`,
    auth: 'session',
    scope: 'claims:read',
    alsoScope: 'svcpay:read',
    query,
    response,
    produces: CSV_TYPE,
    streamLine: CsvRecord,
  } satisfies Endpoint);

export const arAgingEndpoint = panel(
  'ar-aging',
  'Accounts receivable aging by payer: each sent claim’s open balance from the ledger (charge, 835 postings, payments, write-offs) in buckets of days since its date of service (0–30, 31–60, 61–90, 91–120, over 120), as of today in the clinic’s zone',
  AsOfQuery,
  ArAging,
);

export const collectionsEndpoint = panel(
  'collections',
  'Collections per week (Monday first, clinic calendar) from the ledger: payers’ 835 payments by their payment date and patients’ payments; ?from=&to= clinic dates, default the last 90 days',
  DashboardQuery,
  Collections,
);

export const denialRateEndpoint = panel(
  'denials',
  'Denial rate (claims denied in full by their first 835 / claims whose first 835 arrived in the period) and the top denial reasons, CARCs in words; ?from=&to= clinic dates, default the last 90 days',
  DashboardQuery,
  DenialRate,
);

export const cleanClaimRateEndpoint = panel(
  'clean-claims',
  'First-pass clean-claim rate: claims accepted on their first submission / claims first submitted in the period; ?from=&to= clinic dates, default the last 90 days',
  DashboardQuery,
  CleanClaimRate,
);

export const daysInArEndpoint = panel(
  'days-in-ar',
  'Days in accounts receivable: open A/R / (charges with a date of service in the last 90 days / 90), as of today in the clinic’s zone',
  AsOfQuery,
  DaysInAr,
);

export const dashboardEndpoints = [
  arAgingEndpoint,
  collectionsEndpoint,
  denialRateEndpoint,
  cleanClaimRateEndpoint,
  daysInArEndpoint,
];
