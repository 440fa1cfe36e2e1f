// POST /api/jobs/{id}/retry: put a failed job of the clinic back on its queue (users:admin, step-up, audited).
import { route } from '@/lib/http/route';
import { requireBoss } from '@/lib/background/boss';
import { retryJobEndpoint } from '@/lib/background/endpoints';
import { retryJob } from '@/lib/background/retry-job';

export const POST = route(retryJobEndpoint, async ({ params, actor, deps, correlationId }) =>
  retryJob(
    { ...deps, boss: await requireBoss() },
    { clinicId: actor.clinicId, orgId: actor.orgId, userId: actor.userId, correlationId, id: params.id },
  ),
);
