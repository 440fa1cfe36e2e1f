// POST /api/emr-sync/connections/{id}/pull: "Pull now" for one connection of the clinic, of any kind: a queued
// export answers 202 with its run (Location: the run to follow), a browser pull 200 with its counts.
import { route } from '@/lib/http/route';
import { json } from '@/lib/http/responses';
import { requireFhirStore } from '@/lib/deps';
import { connectionPullEndpoint } from '@/lib/emr/endpoints';
import { pullConnection } from '@/lib/emr/pull-connection';
import { QueuedPull } from '@/lib/emr/pull-job';
import { PullResult } from '@/lib/emr/run-pull';

const render = (result: PullResult | QueuedPull) =>
  'ok' in result
    ? json(PullResult.parse(result))
    : json(QueuedPull.parse(result), {
        status: 202,
        headers: { location: `/api/emr-sync/runs/${encodeURIComponent(result.syncRunId)}` },
      });

export const POST = route({ ...connectionPullEndpoint, render }, ({ params, query, actor, deps }) =>
  pullConnection({ ...deps, fhirStore: requireFhirStore(deps) }, { ...query, ...actor, connectionId: params.id }),
);
