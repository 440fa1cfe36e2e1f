// GET /api/denials: the denial work queue (claims:read).
import { route } from '@/lib/http/route';
import { listDenialsEndpoint } from '@/lib/remittances/endpoints';
import { listDenials } from '@/lib/remittances/list-denials';

export const GET = route(listDenialsEndpoint, ({ actor, deps }) => listDenials(deps, { clinicId: actor.clinicId }));
