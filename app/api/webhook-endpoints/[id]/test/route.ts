// POST /api/webhook-endpoints/{id}/test: queue a webhook.test event to this endpoint (202).
import { route } from '@/lib/http/route';
import { sendTestEventEndpoint } from '@/lib/events/endpoints';
import { sendTestEvent } from '@/lib/events/send-test-event';

export const POST = route(sendTestEventEndpoint, ({ params, actor, deps }) =>
  sendTestEvent(deps, { ...actor, id: params.id }),
);
