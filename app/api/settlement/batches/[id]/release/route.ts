// POST /api/settlement/batches/{id}/release: release a created batch exactly once (svcpay:write, step-up).
import { route } from '@/lib/http/route';
import { releaseBatchEndpoint } from '@/lib/payouts/endpoints';
import { releaseBatch } from '@/lib/payouts/release-batch';

export const POST = route(releaseBatchEndpoint, ({ params, actor, deps }) => releaseBatch(deps, actor, params.id));
