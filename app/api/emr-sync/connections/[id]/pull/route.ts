// POST /api/emr-sync/connections/{id}/pull: "Pull now" for one connection of the clinic, of any kind.
import { route } from '@/lib/http/route';
import { requireFhirStore } from '@/lib/deps';
import { connectionPullEndpoint } from '@/lib/emr/endpoints';
import { pullConnection } from '@/lib/emr/pull-connection';

export const POST = route(connectionPullEndpoint, ({ params, query, actor, deps }) =>
  pullConnection({ ...deps, fhirStore: requireFhirStore(deps) }, { ...query, ...actor, connectionId: params.id }),
);
