// Reconciliation: the nightly job (cron bearer) and the clinic's variances.
import { endpoint } from '../endpoint';
import { CSV_TYPE, CsvFormat, CsvRecord } from '../csv/csv-table';
import { ReconcileQuery, ReconciliationRun } from './reconcile-day';
import { VarianceList, VarianceQuery } from './list-variances';

export const reconcileJobEndpoint = endpoint({
  method: 'POST',
  path: '/api/jobs/reconcile',
  tags: ['reconciliation'],
  summary:
    'Nightly: compare ledger, FBO position and rail per clinic for one calendar day, in the time zone of each clinic (default yesterday as UTC counts it), and each ERA with its deposit (3 business days to arrive), and record variances',
  auth: 'cron',
  query: ReconcileQuery,
  response: ReconciliationRun,
});

export const listVariancesEndpoint = endpoint({
  method: 'GET',
  path: '/api/reconciliation/variances',
  tags: ['reconciliation'],
  summary:
    'The clinic\'s reconciliation variances of every kind (ledger_mismatch, era_without_deposit, deposit_without_era, amount_mismatch, unmatched_claim: a CLP that named no sent claim of the clinic and posted nowhere), newest day first, at most 100, and `waiting`: each ERA still waiting for its deposit ("Waiting for the deposit") or deposit for its ERA, with the day it becomes a variance; ?day=YYYY-MM-DD for one day. With ?format=csv: the same rows as a streamed text/csv download (cells a spreadsheet would run as formulas neutralised) (the variances; waiting pairs are not variances)',
  auth: 'session',
  scope: 'svcpay:read',
  query: VarianceQuery.extend({ format: CsvFormat }),
  response: VarianceList,
  produces: CSV_TYPE,
  streamLine: CsvRecord,
});

export const reconciliationEndpoints = [reconcileJobEndpoint, listVariancesEndpoint];
