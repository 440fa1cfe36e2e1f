// GET /api/settlement/overview: the clinic's pools and newest instructions, for the settlement console (svcpay:read).
import { route } from '@/lib/http/route';
import { settlementOverviewEndpoint } from '@/lib/settlements/endpoints';
import { readSettlementOverview } from '@/lib/settlements/settlement-overview';

export const GET = route(settlementOverviewEndpoint, ({ actor, deps }) => readSettlementOverview(deps, actor.clinicId));
