// GET /api/reconciliation/variances: the clinic's reconciliation variances (svcpay:read).
import { route } from '@/lib/http/route';
import { listVariancesEndpoint } from '@/lib/reconciliation/endpoints';
import { listVariances } from '@/lib/reconciliation/list-variances';

export const GET = route(listVariancesEndpoint, ({ actor, deps }) => listVariances(deps, { clinicId: actor.clinicId }));
