// POST /api/jobs/era-retrieval: fetch and post the 835s waiting at the clearinghouse (Authorization: Bearer
// CRON_SECRET). Only a live clearinghouse (CLEARINGHOUSE_*) has any: without one the domain refuses with 501.
import { route } from '@/lib/http/route';
import { requireClearinghouse } from '@/lib/deps';
import { eraRetrievalEndpoint } from '@/lib/remittances/endpoints';
import { retrieveRemittances } from '@/lib/remittances/retrieve-remittances';

export const POST = route(eraRetrievalEndpoint, ({ deps, log, correlationId }) =>
  retrieveRemittances(
    { ...deps, log, clearinghouse: deps.config.clearinghouse ? requireClearinghouse(deps) : null },
    { now: deps.clock(), correlationId },
  ),
);
