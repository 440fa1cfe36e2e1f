// GET /api/reconciliation/variances: the clinic's reconciliation variances, optionally of one day, JSON or CSV (svcpay:read).
import { route } from '@/lib/http/route';
import { listVariancesEndpoint } from '@/lib/reconciliation/endpoints';
import { listVariances, VarianceList } from '@/lib/reconciliation/list-variances';
import { variancesCsv } from '@/lib/reconciliation/variances-csv';
import { csvOrJson } from '@/lib/http/csv-or-json';

export const GET = route(
  { ...listVariancesEndpoint, render: csvOrJson(VarianceList, variancesCsv) },
  ({ query, actor, deps }) => listVariances(deps, { clinicId: actor.clinicId, day: query.day }),
);
