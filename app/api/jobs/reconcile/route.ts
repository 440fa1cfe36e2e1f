// POST /api/jobs/reconcile[?day=YYYY-MM-DD]: nightly reconciliation (Authorization: Bearer CRON_SECRET), run as a
// job of the reconcile queue by whichever instance works it; the call waits for it and answers with its result.
import { route } from '@/lib/http/route';
import { requireBoss } from '@/lib/background/boss';
import { reconcileJobEndpoint } from '@/lib/reconciliation/endpoints';
import { reconcileDay } from '@/lib/reconciliation/reconcile-day';

export const POST = route(reconcileJobEndpoint, async ({ query, deps, correlationId }) =>
  reconcileDay({ ...deps, boss: await requireBoss() }, { ...query, correlationId }),
);
