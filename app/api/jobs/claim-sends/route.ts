// POST /api/jobs/claim-sends: finish claim sends a crash left `sending` (Authorization: Bearer CRON_SECRET).
import { route } from '@/lib/http/route';
import { requireClearinghouse } from '@/lib/deps';
import { finishClaimSendsEndpoint } from '@/lib/claims/endpoints';
import { finishInterruptedSends } from '@/lib/claims/finish-interrupted-sends';

export const POST = route(finishClaimSendsEndpoint, ({ deps, correlationId }) =>
  finishInterruptedSends({ ...deps, clearinghouse: requireClearinghouse(deps) }, { correlationId }),
);
