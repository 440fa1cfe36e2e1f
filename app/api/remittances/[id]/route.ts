// GET /api/remittances/{id}: one posted 835 with its claims, codes and words (svcpay:read).
import { route } from '@/lib/http/route';
import { getRemittanceEndpoint } from '@/lib/remittances/endpoints';
import { getRemittance } from '@/lib/remittances/remittance-view';

export const GET = route(getRemittanceEndpoint, ({ params, actor, deps }) =>
  getRemittance(deps, { clinicId: actor.clinicId, remittanceId: params.id }),
);
