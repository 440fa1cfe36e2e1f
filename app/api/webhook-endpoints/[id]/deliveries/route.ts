// GET /api/webhook-endpoints/{id}/deliveries: the endpoint's deliveries, newest first, at most 100.
import { route } from '@/lib/http/route';
import { listDeliveriesEndpoint } from '@/lib/events/endpoints';
import { listDeliveries } from '@/lib/events/list-deliveries';

export const GET = route(listDeliveriesEndpoint, ({ params, actor, deps }) =>
  listDeliveries(deps, { clinicId: actor.clinicId, id: params.id }),
);
