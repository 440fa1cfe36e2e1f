// GET /api/settlement/batches/{id}/file: the exact NACHA file (svcpay:read), text/plain.
import { route } from '@/lib/http/route';
import { getBatchFileEndpoint } from '@/lib/payouts/endpoints';
import { batchFile } from '@/lib/payouts/batch-view';

export const GET = route(getBatchFileEndpoint, ({ params, actor, deps }) => batchFile(deps, actor.clinicId, params.id));
