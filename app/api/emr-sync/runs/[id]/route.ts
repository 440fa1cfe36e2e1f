// GET /api/emr-sync/runs/{id}: one pull's run, for the integrations screen to follow while the pull runs.
import { route } from '@/lib/http/route';
import { syncRunEndpoint } from '@/lib/emr/endpoints';
import { getSyncRun } from '@/lib/emr/sync-run-view';

export const GET = route(syncRunEndpoint, ({ params, actor, deps }) =>
  getSyncRun(deps.db, { clinicId: actor.clinicId, id: params.id }),
);
