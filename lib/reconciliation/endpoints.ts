// Reconciliation: the nightly job (cron bearer) and the clinic's variances.
import { endpoint } from '../endpoint';
import { ReconcileQuery, ReconciliationRun } from './reconcile-day';
import { VarianceList } from './list-variances';

export const reconcileJobEndpoint = endpoint({
  method: 'POST',
  path: '/api/jobs/reconcile',
  tags: ['reconciliation'],
  summary:
    'Nightly: compare ledger, FBO position and rail per clinic for one UTC day (default yesterday) and record variances',
  auth: 'cron',
  query: ReconcileQuery,
  response: ReconciliationRun,
});

export const listVariancesEndpoint = endpoint({
  method: 'GET',
  path: '/api/reconciliation/variances',
  tags: ['reconciliation'],
  summary: "The clinic's reconciliation variances, newest day first, at most 100",
  auth: 'session',
  scope: 'svcpay:read',
  response: VarianceList,
});

export const reconciliationEndpoints = [reconcileJobEndpoint, listVariancesEndpoint];
