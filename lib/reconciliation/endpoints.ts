// Reconciliation: the nightly job (cron bearer) and the clinic's variances.
import { endpoint } from '../endpoint';
import { ReconcileQuery, ReconciliationRun } from './reconcile-day';
import { VarianceList, VarianceQuery } from './list-variances';

export const reconcileJobEndpoint = endpoint({
  method: 'POST',
  path: '/api/jobs/reconcile',
  tags: ['reconciliation'],
  summary:
    'Nightly: compare ledger, FBO position and rail per clinic for one UTC day (default yesterday), and each ERA with its deposit (3 business days to arrive), and record variances',
  auth: 'cron',
  query: ReconcileQuery,
  response: ReconciliationRun,
});

export const listVariancesEndpoint = endpoint({
  method: 'GET',
  path: '/api/reconciliation/variances',
  tags: ['reconciliation'],
  summary:
    "The clinic's reconciliation variances of every kind (ledger_mismatch, era_without_deposit, deposit_without_era, amount_mismatch), newest day first, at most 100; ?day=YYYY-MM-DD for one day",
  auth: 'session',
  scope: 'svcpay:read',
  query: VarianceQuery,
  response: VarianceList,
});

export const reconciliationEndpoints = [reconcileJobEndpoint, listVariancesEndpoint];
