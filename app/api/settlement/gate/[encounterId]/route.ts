// POST /api/settlement/gate/{encounterId}: clear an encounter for settlement (svcpay:write, step-up).
import { route } from '@/lib/http/route';
import { settlementGateEndpoint } from '@/lib/settlements/endpoints';
import { clearSettlementGate } from '@/lib/settlements/clear-settlement-gate';

export const POST = route(settlementGateEndpoint, ({ params, actor, deps }) =>
  clearSettlementGate(deps, { ...actor, encounterId: params.encounterId }),
);
