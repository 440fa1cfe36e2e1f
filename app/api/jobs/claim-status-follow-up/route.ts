// POST /api/jobs/claim-status-follow-up[?clinicId=]: a 276 for each quiet accepted claim (Authorization: Bearer
// CRON_SECRET).
import { route } from '@/lib/http/route';
import { requireClearinghouse } from '@/lib/deps';
import { claimStatusFollowUpEndpoint } from '@/lib/claims/endpoints';
import { followUpEveryClinic } from '@/lib/claims/follow-up-claim-status';

export const POST = route(claimStatusFollowUpEndpoint, ({ query, deps, log, correlationId }) =>
  followUpEveryClinic({ ...deps, log, clearinghouse: requireClearinghouse(deps) }, { ...query, correlationId }),
);
