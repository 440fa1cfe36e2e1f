// GET /api/bills: the clinic's patient bills with their payments (svcpay:read).
import { route } from '@/lib/http/route';
import { listBillsEndpoint } from '@/lib/bills/endpoints';
import { listBills } from '@/lib/bills/list-bills';

export const GET = route(listBillsEndpoint, ({ actor, deps }) => listBills(deps, { clinicId: actor.clinicId }));
