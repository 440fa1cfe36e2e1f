// Background work on the embedded database (PGlite: pg-boss on the very instance the app's Prisma uses), through
// HTTP only: a bulk export runs end to end on the job engine and shows in GET /api/jobs; each clinic sees its own
// jobs and the schedules of its own time zone, whose next run is 18:00 (pre-verification) and 02:00
// (reconciliation) on the clinic's clock, each saying how its last run ended; the list is users:admin only and the
// retry is gated by step-up; a dead EMR pull or bulk export is not retried (409: start a new one).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintStepUpClaim } from '@/lib/auth/step-up';
import { clinicDateOf, clinicTimeOf } from '@/lib/time/clinic-day';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser } from '../support/factories';
import { jobsOf } from '../support/jobs';
import { stepUpHeader } from '../support/step-up-claim';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let app: TestApp;
let northAdmin: HttpClient;
let southAdmin: HttpClient;

beforeAll(async () => {
  app = await startApp({ database: 'pglite' });
  northAdmin = await signIn(app, 'admin@northside.test');
  southAdmin = await signIn(app, 'admin@southside.test');
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

async function stepUp(userId: string, orgId = 'org_demo') {
  const { token } = await mintStepUpClaim(
    { userId, orgId, sessionVersion: 0 },
    'password',
    TEST_SECRETS.STEP_UP_SECRET,
    new Date(),
  );
  return { 'x-svc-step-up': token };
}

type Listed = {
  jobs: Array<{ id: string; queue: string; state: string; attempts: number; lastError: string | null }>;
  schedules: Array<{
    name: string;
    cron: string;
    timeZone: string;
    lastRunAt: string | null;
    nextRunAt: string;
    lastRunState: string | null;
    lastRunError: string | null;
  }>;
};

describe('the job engine on embedded PGlite', () => {
  it('runs a bulk export end to end and lists its job for its clinic only', async () => {
    const kickOff = await northAdmin.get('/api/fhir/$export?_type=Patient', { headers: { prefer: 'respond-async' } });
    expect(kickOff.status).toBe(202);
    const statusUrl = kickOff.headers.get('content-location')!;
    let manifest: { status: number; body: { status: string } } | undefined;
    for (let i = 0; i < 80 && !manifest; i++) {
      const res = await northAdmin.get(statusUrl);
      if (res.status === 200) manifest = res;
      else await sleep(250);
    }
    expect(manifest?.body.status).toBe('completed');

    const north = await northAdmin.get('/api/jobs');
    expect(north.status).toBe(200);
    const exportJobs = (north.body as Listed).jobs.filter((j) => j.queue === 'bulk-export');
    expect(exportJobs).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        queue: 'bulk-export',
        state: 'completed',
        attempts: 1,
        lastError: null,
        createdAt: expect.any(String),
        startedAt: expect.any(String),
        completedAt: expect.any(String),
      },
    ]);
    const south = await southAdmin.get('/api/jobs');
    expect(south.status).toBe(200);
    expect((south.body as Listed).jobs.map((j) => j.id)).not.toContain(exportJobs[0]!.id);
  });

  it("shows each clinic the schedules of its own time zone, next due at 18:00 and 02:00 on the clinic's clock", async () => {
    for (const [client, timeZone] of [
      [northAdmin, 'America/New_York'],
      [southAdmin, 'America/Los_Angeles'],
    ] as const) {
      const { schedules } = (await client.get('/api/jobs')).body as Listed;
      // The clinic's zone's schedules and the platform's (in UTC), by name.
      expect(schedules.map(({ name, cron, timeZone: zone }) => ({ name, cron, timeZone: zone }))).toEqual([
        { name: 'schedule.claim-send-recovery', cron: '*/5 * * * *', timeZone: 'UTC' },
        { name: 'schedule.claim-status-follow-up', cron: '0 7 * * *', timeZone },
        // Sandbox only: the demo tenant's rolling day.
        { name: 'schedule.demo-day', cron: '*/5 * * * *', timeZone: 'UTC' },
        { name: 'schedule.era-retrieval', cron: '0 * * * *', timeZone: 'UTC' },
        { name: 'schedule.pre-verification', cron: '0 18 * * *', timeZone },
        { name: 'schedule.reconciliation', cron: '0 2 * * *', timeZone },
      ]);
      const named = (name: string) => schedules.find((s) => s.name === name);
      const [preVerification, reconciliation] = [named('schedule.pre-verification'), named('schedule.reconciliation')];
      expect(clinicTimeOf(new Date(named('schedule.claim-status-follow-up')!.nextRunAt), timeZone)).toBe('07:00');
      expect(clinicTimeOf(new Date(preVerification!.nextRunAt), timeZone)).toBe('18:00');
      expect(clinicTimeOf(new Date(reconciliation!.nextRunAt), timeZone)).toBe('02:00');
      const next = new Date(preVerification!.nextRunAt);
      expect(next.getTime()).toBeGreaterThan(Date.now());
      expect(next.getTime() - Date.now()).toBeLessThanOrEqual(25 * 60 * 60 * 1000);
      expect([clinicDateOf(new Date(), timeZone), clinicDateOf(new Date(Date.now() + 86_400_000), timeZone)]).toContain(
        clinicDateOf(next, timeZone),
      );
    }
  });

  it("says how each schedule's last run ended: its state, and its error in words (null before a first run)", async () => {
    const { schedules } = (await northAdmin.get('/api/jobs')).body as Listed;
    expect(schedules.length).toBeGreaterThan(0);
    for (const listed of schedules) {
      expect(Object.keys(listed).sort()).toEqual([
        'cron',
        'lastRunAt',
        'lastRunError',
        'lastRunState',
        'name',
        'nextRunAt',
        'timeZone',
      ]);
      expect([null, 'created', 'active', 'retry', 'completed', 'failed', 'cancelled']).toContain(listed.lastRunState);
      if (listed.lastRunState === null) expect([listed.lastRunAt, listed.lastRunError]).toEqual([null, null]);
      if (listed.lastRunState === 'completed') expect(listed.lastRunError).toBeNull();
    }
  });

  it('is users:admin only and refuses without a session', async () => {
    const frontDesk = await signIn(app, 'frontdesk@northside.test');
    const refused = await frontDesk.get('/api/jobs');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('SCOPE_MISSING');
    expect((await new HttpClient(app.url).get('/api/jobs')).status).toBe(401);
  });

  it("retries only with a step-up claim, and never another clinic's job", async () => {
    const { jobs } = (await northAdmin.get('/api/jobs')).body as Listed;
    const id = jobs[0]!.id;
    const stale = await northAdmin.post(`/api/jobs/${id}/retry`);
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe('STEP_UP_REQUIRED');
    const foreign = await southAdmin.post(`/api/jobs/${id}/retry`, undefined, {
      headers: await stepUp('user_admin_south'),
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'NOT_FOUND', message: 'No such job' });
    const notFailed = await northAdmin.post(`/api/jobs/${id}/retry`, undefined, {
      headers: await stepUp('user_admin_north'),
    });
    expect(notFailed.status).toBe(409);
    expect(notFailed.body).toMatchObject({ code: 'NOT_EXECUTABLE', message: 'Only a failed job can be retried' });
  });
});

describe('APP_ROLE=web', () => {
  let web: TestApp;
  beforeAll(async () => {
    web = await startApp({ database: 'pglite', env: { APP_ROLE: 'web' } });
  }, 120_000);
  afterAll(async () => {
    await web?.stop();
  });

  it('queues work but works no job and keeps no schedule', async () => {
    const admin = await signIn(web, 'admin@northside.test');
    const kickOff = await admin.get('/api/fhir/$export?_type=Patient', { headers: { prefer: 'respond-async' } });
    expect(kickOff.status).toBe(202);
    await sleep(4000); // a worker would have finished it in about a second
    const status = await admin.get(kickOff.headers.get('content-location')!);
    expect(status.status).toBe(202);
    expect(status.headers.get('x-progress')).toBe('queued');
    const listed = (await admin.get('/api/jobs')).body as Listed;
    expect(listed.jobs.map((j) => [j.queue, j.state, j.attempts])).toEqual([['bulk-export', 'created', 0]]);
    expect(listed.schedules).toEqual([]);
  });
});

describe('POST /api/jobs/{id}/retry of work its dead letter closed', () => {
  let pg: TestApp;
  beforeAll(async () => {
    pg = await startApp();
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
  });

  it.each([
    ['emr-pull', 'This EMR pull stopped for good and cannot be run again; start a new pull'],
    ['bulk-export', 'This bulk export stopped for good and cannot be run again; start a new export'],
  ])('answers 409 NOT_EXECUTABLE for a failed %s job, and leaves it failed', async (queue, message) => {
    const tenant = await createTenant(pg.db);
    const admin = await createUser(pg.db, tenant, { scopes: ['users:admin'] });
    const client = await signIn(pg, admin.email, admin.password);
    // The job as its dead letter left it: failed for good, the run or export already closed.
    const id = randomUUID();
    await pg.db.$executeRawUnsafe(
      `INSERT INTO pgboss.job (id, name, data, state, retry_limit, retry_count, policy)
       VALUES ($1::uuid, $2, $3::jsonb, 'failed', 0, 0, 'standard')`,
      id,
      queue,
      JSON.stringify({ clinicId: tenant.clinicId, correlationId: 'setup' }),
    );
    const res = await client.post(`/api/jobs/${id}/retry`, undefined, { headers: await stepUpHeader(pg, admin.email) });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'NOT_EXECUTABLE', message, correlationId: expect.any(String) });
    expect((await jobsOf(pg.db, queue)).find((job) => job.id === id)).toMatchObject({ state: 'failed' });
  });
});
