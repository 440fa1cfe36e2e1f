// GET /api/emr-sync/connections: the clinic's EMR connections. POST: create one (201; integrations:read).
import { route } from '@/lib/http/route';
import { createConnectionEndpoint, listConnectionsEndpoint } from '@/lib/emr/endpoints';
import { listConnections } from '@/lib/emr/list-connections';
import { createConnection } from '@/lib/emr/create-connection';

export const GET = route(listConnectionsEndpoint, ({ actor, deps }) =>
  listConnections(deps, { clinicId: actor.clinicId }),
);

export const POST = route(createConnectionEndpoint, ({ body, actor, deps }) =>
  createConnection(deps, { ...body, ...actor }),
);
