// GET /api/clinic/payout-account: the clinic's payout account, masked (users:admin).
// PUT /api/clinic/payout-account: set it, sealed at rest (users:admin, step-up, audited).
import { route } from '@/lib/http/route';
import { getPayoutAccountEndpoint, putPayoutAccountEndpoint } from '@/lib/payouts/endpoints';
import { readPayoutAccount, setPayoutAccount } from '@/lib/payouts/payout-account';

export const GET = route(getPayoutAccountEndpoint, ({ actor, deps }) => readPayoutAccount(deps, actor.clinicId));

export const PUT = route(putPayoutAccountEndpoint, ({ body, actor, deps }) => setPayoutAccount(deps, actor, body));
