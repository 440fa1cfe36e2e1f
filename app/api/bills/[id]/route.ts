// GET /api/bills/{id}: one patient bill of the clinic with its ledger transactions (svcpay:read).
import { route } from '@/lib/http/route';
import { getBillEndpoint } from '@/lib/bills/endpoints';
import { getBill } from '@/lib/bills/get-bill';

export const GET = route(getBillEndpoint, ({ params, actor, deps }) =>
  getBill(deps, { clinicId: actor.clinicId, billId: params.id }),
);
