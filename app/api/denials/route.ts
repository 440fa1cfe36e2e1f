// GET /api/denials: the denial work queue with next actions, ?nextAction= filter and counts (claims:read).
import { route } from '@/lib/http/route';
import { listDenialsEndpoint } from '@/lib/remittances/endpoints';
import { listDenials } from '@/lib/remittances/list-denials';

export const GET = route(listDenialsEndpoint, ({ query, actor, deps }) =>
  listDenials(deps, { clinicId: actor.clinicId, nextAction: query.nextAction }),
);
