// POST /api/emr-sync/runs/{id}/cancel: the integrations screen's Cancel for a queued or running pull.
import { route } from '@/lib/http/route';
import { cancelSyncRun } from '@/lib/emr/cancel-sync-run';
import { cancelSyncRunEndpoint } from '@/lib/emr/endpoints';

export const POST = route(cancelSyncRunEndpoint, ({ params, actor, deps }) =>
  cancelSyncRun(deps, { ...actor, id: params.id }),
);
