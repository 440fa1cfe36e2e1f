// GET /api/settlement/batches/{id}: one payout batch with its entries (svcpay:read).
import { route } from '@/lib/http/route';
import { getBatchEndpoint } from '@/lib/payouts/endpoints';
import { getBatch } from '@/lib/payouts/batch-view';

export const GET = route(getBatchEndpoint, ({ params, actor, deps }) => getBatch(deps, actor.clinicId, params.id));
