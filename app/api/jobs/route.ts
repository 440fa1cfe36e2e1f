// GET /api/jobs: the clinic's background jobs and its schedules (users:admin).
import { route } from '@/lib/http/route';
import { requireBoss } from '@/lib/background/boss';
import { listJobsEndpoint } from '@/lib/background/endpoints';
import { listJobs } from '@/lib/background/list-jobs';
import { schedulesFor } from '@/lib/schedules/schedules';

export const GET = route(listJobsEndpoint, async ({ actor, deps }) =>
  listJobs(
    { ...deps, boss: await requireBoss() },
    { clinicId: actor.clinicId, scheduleNames: schedulesFor(deps.config.mode).map((s) => s.name) },
  ),
);
