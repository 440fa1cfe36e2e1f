// GET /api/reconciliation/variances: the clinic's reconciliation variances, optionally of one day (svcpay:read).
import { route } from '@/lib/http/route';
import { listVariancesEndpoint } from '@/lib/reconciliation/endpoints';
import { listVariances } from '@/lib/reconciliation/list-variances';

export const GET = route(listVariancesEndpoint, ({ query, actor, deps }) =>
  listVariances(deps, { clinicId: actor.clinicId, day: query.day }),
);
