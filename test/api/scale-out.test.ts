// A fleet as docs/operations.md draws it, tried for real: one worker-only and two web-only instances of the built app
// started at the same moment, all reaching one fresh PostgreSQL database through a real PgBouncer in transaction
// mode (DATABASE_URL), with DATABASE_DIRECT_URL naming the server itself. Every guarantee that matters holds across
// the instances: all come up healthy through PgBouncer and the demo is seeded once; the worker answers health and
// refuses everything else; one webhook delivered 30 times across the web instances is applied once (its fast path
// is a statement the app would otherwise prepare by name, which PgBouncer 1.18 cannot carry between connections);
// 20 executes of one settlement instruction disburse once; a TOTP code used on one instance is refused on another;
// a session version bumped on one instance ends the session on another; 3 overlapping reconcile calls answer with
// one run; a bulk export is worked by the worker (web instances work no job), and when that worker is killed
// (SIGKILL) mid-run the worker started in its place completes it; and an evening pre-verification occurrence
// delivered three times checks each appointment of the next clinic day once.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBoss } from 'pg-boss';
import { embeddedFhirStore } from '@/lib/fhir/embedded-fhir-store';
import { PRE_VERIFICATION_QUEUE } from '@/lib/eligibility/pre-verify-appointments';
import { clinicDateOf, clinicInstant, clinicTimeOf, nextDate } from '@/lib/time/clinic-day';
import { signBody } from '@/lib/webhooks/verify-signature';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { attemptSignIn, HttpClient, signIn } from '../support/http';
import { stepUpHeader } from '../support/step-up-claim';
import { signedInUser, totpCode } from '../support/auth-factors';
import { createPatient, createTenant } from '../support/factories';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { findKeyedJob, jobsOf } from '../support/jobs';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer';

const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let database: TestDatabase;
let bouncer: PgBouncer;
/** Every running instance; `worker` and `webs` are its two kinds. Requests go to the web instances only. */
let apps: TestApp[] = [];
let worker: TestApp;
let webs: TestApp[] = [];
const started: PromiseSettledResult<TestApp>[] = [];
const ROLES = ['worker', 'web', 'web'] as const;

/** An instance of the fleet: the app behind PgBouncer in transaction mode, the server's own address beside it. */
function startInstance(role: 'web' | 'worker'): Promise<TestApp> {
  return startApp({
    reuse: database,
    env: { APP_ROLE: role, DATABASE_URL: bouncer.pooled(database.url), DATABASE_DIRECT_URL: database.url },
  });
}

/** The same signed-in browser, talking to another instance (sessions are signed with the shared AUTH_SECRET). */
function on(app: TestApp, client: HttpClient): HttpClient {
  const moved = new HttpClient(app.url);
  for (const [name, value] of client.cookies) moved.cookies.set(name, value);
  return moved;
}

/** Holds `table` against writes (reads go on) until release(): makes a run wait at its first write to it. */
async function holdWrites(table: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE "${table}" IN EXCLUSIVE MODE`);
  return {
    async release() {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

beforeAll(async () => {
  bouncer = await startPgBouncer();
  database = await createTestDatabase();
  started.push(...(await Promise.allSettled(ROLES.map((role) => startInstance(role)))));
  const up = started.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
  apps = up.filter((app): app is TestApp => app !== undefined);
  worker = up[0]!;
  webs = up.slice(1).filter((app): app is TestApp => app !== undefined);
}, 170_000);

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
  await database?.drop();
  await bouncer?.stop();
});

// One zone for each UTC offset from -10 to +13 but New York's and Los Angeles's (the other tests' clinics are there,
// and a pre-verification run of their zone would check them too): at any moment one of them is between 19:00 and
// 22:00, an hour or more from the 18:00 occurrence and from midnight.
const ZONES_AROUND_THE_WORLD = [
  ...['Pacific/Honolulu', 'America/Anchorage', 'America/Denver', 'America/Chicago', 'America/Halifax'],
  ...['America/Sao_Paulo', 'Atlantic/South_Georgia', 'Atlantic/Cape_Verde', 'UTC', 'Europe/Paris', 'Africa/Cairo'],
  ...['Europe/Moscow', 'Asia/Dubai', 'Asia/Karachi', 'Asia/Dhaka', 'Asia/Bangkok', 'Asia/Shanghai', 'Asia/Tokyo'],
  ...['Australia/Brisbane', 'Pacific/Noumea', 'Pacific/Fiji', 'Pacific/Tongatapu'],
];

function zoneInTheEvening(now: Date): string {
  const zone = ZONES_AROUND_THE_WORLD.find((tz) => {
    const hour = Number(clinicTimeOf(now, tz).slice(0, 2));
    return hour >= 19 && hour < 22;
  });
  if (!zone) throw new Error(`no zone of the list is in the evening at ${now.toISOString()}`);
  return zone;
}

describe('one worker and two web instances through PgBouncer in transaction mode', () => {
  it('all start healthy together through PgBouncer, and the demo tenant is seeded once', async () => {
    expect(started.map((r) => (r.status === 'rejected' ? String(r.reason).slice(0, 400) : 'ok'))).toEqual([
      'ok',
      'ok',
      'ok',
    ]);
    for (const app of apps) expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    const db = apps[0]!.db;
    expect(await db.organization.count({ where: { id: 'org_demo' } })).toBe(1);
    expect(await db.user.count({ where: { orgId: 'org_demo' } })).toBe(5);
    expect(await db.patient.count()).toBe(20);
    // Ten appointments a clinic day, for both clinics: each one's today, and its next day too within 15 minutes of
    // its midnight (04:45-05:00 UTC for New York), so the total is 20 or 30 by the hour the suite runs.
    const days = new Map<string, number>();
    for (const { id } of await db.appointment.findMany({ select: { id: true } })) {
      const day = id.replace(/_\d{3}_/, '_'); // appt_<clinic>_<n>_<yyyymmdd> -> appt_<clinic>_<yyyymmdd>
      days.set(day, (days.get(day) ?? 0) + 1);
    }
    expect(new Set([...days.keys()].map((day) => day.split('_')[1]))).toEqual(new Set(['n', 's']));
    expect([...days.values()].every((n) => n === 10)).toBe(true);
    // Each instance's pool (svc:<pid>) is PgBouncer's client, and so is the worker's job engine (svc-jobs:<pid>,
    // polling). A pool closes idle connections after 10 s, so each is asked for health (a query) just before.
    const admin = new pg.Client({ connectionString: bouncer.pooled(database.url).replace(/\/[^/]*$/, '/pgbouncer') });
    await admin.connect();
    const seen = new Set<string>();
    try {
      const clientNames = async () => {
        await Promise.all(apps.map((app) => fetch(`${app.url}/api/health`)));
        const rows = (await admin.query('SHOW CLIENTS')).rows as Array<{ application_name: string }>;
        return new Set(rows.map((row) => row.application_name));
      };
      const expected = [...apps.map((app) => `svc:${app.pid}`), `svc-jobs:${worker.pid}`];
      await expect
        .poll(
          async () => {
            for (const name of await clientNames()) seen.add(name);
            return expected.filter((name) => !seen.has(name));
          },
          { timeout: 15_000 },
        )
        .toEqual([]);
    } finally {
      await admin.end();
    }
  });

  it('the worker answers health and refuses every other request with 503, a webhook included (nothing applied)', async () => {
    const health = await new HttpClient(worker.url).get('/api/health');
    expect(health.status).toBe(200);
    const refusal = {
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'This instance does background work only; send requests to a web instance',
    };
    const billing = on(worker, await signIn(webs[0]!, 'billing@northside.test'));
    for (const path of ['/api/claims', '/api/openapi.json', '/login']) {
      const res = await billing.get(path);
      expect(res.status, path).toBe(503);
      expect(res.body, path).toMatchObject(refusal);
    }
    // The roster skips the middleware too: the wrapper refuses it before any payer call.
    const roster = await billing.post('/api/eligibility/roster', { appointments: [{ patientId: 'pat_1' }] });
    expect(roster.status).toBe(503);
    expect(roster.body).toMatchObject(refusal);
    // Partner webhooks skip the middleware: the route wrapper refuses them on a worker before the signature.
    const raw = JSON.stringify({ id: uid('evt'), type: 'payment.succeeded', data: {} });
    const webhook = await new HttpClient(worker.url).request('POST', '/api/webhooks/payment', {
      body: raw,
      headers: {
        'content-type': 'application/json',
        'x-svc-delivery': uid('dlv'),
        'x-svc-signature': signBody(Buffer.from(raw), TEST_SECRETS.WEBHOOK_SECRET_PAYMENT),
      },
    });
    expect(webhook.status).toBe(503);
    expect(webhook.body).toMatchObject(refusal);
    expect(await worker.db.webhookDelivery.count()).toBe(0);
  });

  it('PgBouncer in transaction mode cannot carry a statement prepared by name, which is why the app sends none', async () => {
    // A bouncer of its own with one server connection, so the six clients' statements certainly meet on it: on the
    // fleet's 20 a client could by chance keep landing where it had prepared (seen once in CI).
    const single = await startPgBouncer({ serverPoolSize: 1 });
    const pool = new pg.Pool({ connectionString: single.pooled(database.url), max: 6 });
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) => pool.query({ name: 'fleet-probe', text: 'SELECT $1::int', values: [i] })),
      );
      expect(results.some((r) => r.status === 'rejected')).toBe(true);
    } finally {
      await pool.end();
      await single.stop();
    }
  });

  it('applies one webhook delivered 30 times across the web instances exactly once', async () => {
    const db = apps[0]!.db;
    const billId = uid('bill');
    await db.patientBill.create({
      data: { id: billId, clinicId: 'clinic_north', patientId: 'pat_n_001', amountCents: 12_500 },
    });
    const paymentId = uid('pay');
    const raw = JSON.stringify({
      id: uid('evt'),
      type: 'payment.succeeded',
      createdAt: new Date().toISOString(),
      clinicId: 'clinic_north',
      data: { paymentId, billId, amountCents: 12_500, currency: 'USD' },
    });
    const headers = {
      'content-type': 'application/json',
      'x-svc-delivery': uid('dlv'),
      'x-svc-signature': signBody(Buffer.from(raw), TEST_SECRETS.WEBHOOK_SECRET_PAYMENT),
    };
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        new HttpClient(webs[i % webs.length]!.url).request('POST', '/api/webhooks/payment', { body: raw, headers }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(results.filter((r) => r.body.duplicate === false).map((r) => r.body.outcome)).toEqual(['applied']);
    expect(await db.payment.count({ where: { billId } })).toBe(1);
    expect(await db.ledgerTransaction.count({ where: { reference: `payment:${paymentId}` } })).toBe(1);
    expect(await db.patientBill.findUniqueOrThrow({ where: { id: billId } })).toMatchObject({
      paidCents: 12_500,
      status: 'paid',
    });
  });

  it('disburses one settlement instruction once under 20 executes across the web instances', async () => {
    const billing = await signIn(webs[0]!, 'billing@northside.test');
    const stepUp = await stepUpHeader(webs[0]!, 'billing@northside.test');
    const created = await billing.post('/api/settlement/instructions', {
      poolId: 'pool_n_001',
      advanceAmountCents: 10_000,
      feeBps: 300,
      reserveBps: 700,
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.instructionId;
    expect(
      (await on(webs[1]!, billing).post(`/api/settlement/instructions/${id}/sign`, undefined, { headers: stepUp }))
        .status,
    ).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        on(webs[i % webs.length]!, billing).post(
          `/api/settlement/console/${id}/execute`,
          { railReference: `SCALE-${i}` },
          { headers: stepUp },
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    const db = apps[0]!.db;
    expect(await db.settlementInstruction.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'DISBURSED',
      paidAmountCents: 10_000n,
    });
    expect(await db.ledgerTransaction.count({ where: { reference: `settlement:${id}` } })).toBe(1);
    expect((await db.settlementPool.findUniqueOrThrow({ where: { id: 'pool_n_001' } })).availableCents).toBe(990_000n);
  });

  it('refuses on one instance a TOTP code already accepted on another', async () => {
    const code = totpCode('JBSWY3DPEHPK3PXP');
    const first = await attemptSignIn(webs[0]!, 'mfa@northside.test', 'demo-password-1', code);
    expect(first.response.status).toBe(200);
    expect(first.client.sessionToken).toBeDefined();
    const replay = await attemptSignIn(webs[1]!, 'mfa@northside.test', 'demo-password-1', code);
    expect(replay.response.status).not.toBe(200);
    expect(replay.client.sessionToken).toBeUndefined();
  });

  it('ends on one instance a session whose version was bumped on another', async () => {
    const { user, client } = await signedInUser(webs[0]!);
    const elsewhere = await signIn(webs[0]!, user.email, user.password); // a second browser, served by the first
    expect((await elsewhere.get('/api/auth/mfa')).status).toBe(200);
    const onTwo = on(webs[1]!, client);
    const {
      body: { secret },
    } = await onTwo.get('/api/auth/mfa');
    // Turning MFA on bumps sessionVersion: every other session of the user ends, on every instance.
    const enabled = await onTwo.post(
      '/api/auth/mfa',
      { action: 'enable', secret, token: totpCode(secret) },
      { headers: await stepUpHeader(webs[1]!, user.email) },
    );
    expect(enabled.status).toBe(200);
    expect((await elsewhere.get('/api/auth/mfa')).status).toBe(401);
  });

  it('answers 3 overlapping reconcile calls across the web instances with one run (worked by the worker)', async () => {
    const db = apps[0]!.db;
    const tenant = await createTenant(db, 'ScaleRecon');
    const day = '2026-10-01';
    await db.railPosting.create({
      data: {
        id: uid('btx'),
        clinicId: tenant.clinicId,
        amountCents: 99n,
        direction: 'credit',
        postedAt: new Date(`${day}T12:00:00Z`),
        railReference: 'R',
      },
    });
    const held = await holdWrites('ReconciliationVariance'); // the run waits at its first write until all 3 calls are in
    const cron = { authorization: `Bearer ${TEST_SECRETS.CRON_SECRET}` };
    const calls = [0, 1, 2].map((i) =>
      new HttpClient(webs[i % webs.length]!.url).request('POST', `/api/jobs/reconcile?day=${day}`, { headers: cron }),
    );
    await sleep(1500);
    await held.release();
    const results = await Promise.all(calls);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.body.correlationId)).size).toBe(1);
    expect(results[0]!.body.variances).toEqual([
      { clinicId: tenant.clinicId, ledgerCents: 0, fboCents: 0, railCents: 99 },
    ]);
    expect(await db.reconciliationVariance.count({ where: { day } })).toBe(1);
    expect(await jobsOf(db, 'reconcile', day)).toMatchObject([{ state: 'completed', retryCount: 0 }]);
  });

  it('a bulk export is worked by the worker, never a web instance, and a worker started after it was killed mid-run completes it', async () => {
    const db = apps[0]!.db;
    await embeddedFhirStore(db).upsertMany(
      'clinic_north',
      Array.from({ length: 50 }, (_, i) => ({ resourceType: 'Patient', id: `scale-${i}` })),
    );
    const admin = await signIn(webs[0]!, 'admin@northside.test');
    // The export runs until it writes its files, then waits here: "mid-run" is certain, whatever the machine's speed.
    const held = await holdWrites('BulkExportFile');
    let killedAt = 0;
    const victim = worker;
    try {
      const kickOff = await admin.get('/api/fhir/$export?_type=Patient', { headers: { prefer: 'respond-async' } });
      expect(kickOff.status).toBe(202);
      const exportId = kickOff.headers.get('content-location')!.split('/').pop()!;
      // The instance writing the files waits on the lock; its connections are named svc:<pid> (lib/db.ts), and
      // PgBouncer hands that name to the server connection it lends.
      let holder: string | null = null;
      for (let i = 0; i < 100 && !holder; i++) {
        const waiting = await db.$queryRawUnsafe<Array<{ application_name: string }>>(
          `SELECT application_name FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%BulkExportFile%'`,
        );
        const job = await findKeyedJob(db, 'bulk-export', exportId);
        if (waiting[0] && job?.state === 'active') holder = waiting[0].application_name;
        else await sleep(100);
      }
      expect(holder, `web instances are ${webs.map((a) => `svc:${a.pid}`).join(', ')}`).toBe(`svc:${victim.pid}`);
      process.kill(victim.pid, 'SIGKILL');
      killedAt = Date.now();
      apps = apps.filter((app) => app !== victim);
      await held.release();
      // A supervisor restarts the worker; the new one fails the dead worker's job once its heartbeat stops, and
      // works the retry. The web instances, though still up, never take it.
      worker = await startInstance('worker');
      apps.push(worker);

      let manifest: { status: number; body: { status: string; output: Array<{ count: number }> } } | undefined;
      while (Date.now() - killedAt < 60_000) {
        const res = await admin.get(`/api/fhir/bulk-status/${exportId}`);
        if (res.status === 200) {
          manifest = res;
          break;
        }
        expect(res.status).toBe(202);
        await sleep(250);
      }
      expect(manifest, 'the export did not complete within 60 s of the kill').toBeDefined();
      expect(manifest!.body).toMatchObject({ status: 'completed', output: [{ count: 50 }] });
      expect(await findKeyedJob(db, 'bulk-export', exportId)).toMatchObject({ state: 'completed', retryCount: 1 });
    } finally {
      if (!killedAt) await held.release();
      await victim.stop();
    }
  }, 120_000);

  it('checks the next clinic day once when an evening occurrence is delivered three times', async () => {
    const db = apps[0]!.db;
    // A zone where it is evening now: the handler works for the latest 18:00 at or before the run, which before 18:00
    // is the day before's (a caught-up occurrence), so a fixed zone made this test's "next day" wrong most hours.
    const timeZone = zoneInTheEvening(new Date());
    const tenant = await createTenant(db, 'Evening');
    await db.clinic.update({ where: { id: tenant.clinicId }, data: { timeZone } });
    const patient = await createPatient(db, tenant);
    const date = nextDate(clinicDateOf(new Date(), timeZone));
    await db.appointment.create({
      data: {
        id: uid('appt'),
        clinicId: tenant.clinicId,
        patientId: patient.id,
        start: clinicInstant(date, '10:00', timeZone),
      },
    });
    // The occurrence as pg-boss's cron sends it, three times over (as if several workers had fired it).
    const boss = new PgBoss({ connectionString: database.url, max: 1, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      for (let i = 0; i < 3; i++) await boss.send('schedule.pre-verification', { timeZone });
    } finally {
      await boss.stop({ graceful: false, timeout: 1000 });
    }
    await expect
      .poll(() => db.eligibilityCheck.count({ where: { clinicId: tenant.clinicId } }), { timeout: 30_000 })
      .toBe(1);
    await sleep(3000); // any late duplicate would have run by now
    expect(
      await db.eligibilityCheck.findMany({
        where: { clinicId: tenant.clinicId },
        select: { patientId: true, dateOfService: true, source: true },
      }),
    ).toEqual([{ patientId: patient.id, dateOfService: date, source: 'schedule' }]);
    const runs = (await jobsOf(db, PRE_VERIFICATION_QUEUE)).filter((j) => j.data.clinicId === tenant.clinicId);
    expect(runs).toMatchObject([{ state: 'completed', data: { clinicId: tenant.clinicId, date } }]);
    // The workers (the first and its replacement) kept each schedule once per time zone.
    const schedules = await db.$queryRawUnsafe<Array<{ name: string; key: string }>>(
      `SELECT name, key FROM pgboss.schedule WHERE name LIKE 'schedule.%' ORDER BY name, key`,
    );
    expect(schedules).toEqual([
      { name: 'schedule.claim-send-recovery', key: 'UTC' },
      { name: 'schedule.claim-status-follow-up', key: 'America/Los_Angeles' },
      { name: 'schedule.claim-status-follow-up', key: 'America/New_York' },
      { name: 'schedule.demo-day', key: 'UTC' },
      { name: 'schedule.era-retrieval', key: 'UTC' },
      { name: 'schedule.pre-verification', key: 'America/Los_Angeles' },
      { name: 'schedule.pre-verification', key: 'America/New_York' },
      { name: 'schedule.reconciliation', key: 'America/Los_Angeles' },
      { name: 'schedule.reconciliation', key: 'America/New_York' },
    ]);
  }, 60_000);
});
