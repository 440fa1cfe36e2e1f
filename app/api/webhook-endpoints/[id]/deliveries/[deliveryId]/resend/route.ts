// POST /api/webhook-endpoints/{id}/deliveries/{deliveryId}/resend: the event again as a new delivery (202, step-up).
import { route } from '@/lib/http/route';
import { resendDeliveryEndpoint } from '@/lib/events/endpoints';
import { resendDelivery } from '@/lib/events/resend-delivery';

export const POST = route(resendDeliveryEndpoint, ({ params, actor, deps }) =>
  resendDelivery(deps, { ...actor, id: params.id, deliveryId: params.deliveryId }),
);
