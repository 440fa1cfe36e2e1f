// GET /api/settlement/batches: the clinic's newest payout batches (svcpay:read).
// POST /api/settlement/batches: build one NACHA file from SIGNED instructions (svcpay:write, step-up).
import { route } from '@/lib/http/route';
import { createBatchEndpoint, listBatchesEndpoint } from '@/lib/payouts/endpoints';
import { listBatches } from '@/lib/payouts/batch-view';
import { createBatch } from '@/lib/payouts/create-batch';

export const GET = route(listBatchesEndpoint, ({ actor, deps }) => listBatches(deps, actor.clinicId));

export const POST = route(createBatchEndpoint, ({ body, actor, deps }) => createBatch(deps, actor, body));
