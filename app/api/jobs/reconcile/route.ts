// POST /api/jobs/reconcile[?day=YYYY-MM-DD]: nightly reconciliation (Authorization: Bearer CRON_SECRET).
import { route } from '@/lib/http/route';
import { reconcileJobEndpoint } from '@/lib/reconciliation/endpoints';
import { reconcileDay } from '@/lib/reconciliation/reconcile-day';

export const POST = route(reconcileJobEndpoint, ({ query, deps, correlationId }) =>
  reconcileDay(deps, { ...query, correlationId }),
);
