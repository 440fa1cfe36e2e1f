// The SMART backend pull as a job (issue #32 item 3), on a real PostgreSQL, a real pg-boss (the queueing) and the
// fake EMR over loopback with real signed tokens; the job's handler is worked here with a simulated clock, so an
// export of hours runs in milliseconds: a 2-hour export polled every 10 minutes completes and saves everything on
// the queued run, and a cancel asked mid-export stops the pull, DELETEs the export and saves nothing.
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBoss, startBoss } from '@/lib/background/boss';
import { parseConfig, type Config } from '@/lib/config';
import { openDb, type Db } from '@/lib/db';
import { embeddedFhirStore } from '@/lib/fhir/embedded-fhir-store';
import { createLogger } from '@/lib/log';
import { createEgress } from '@/lib/outbound/egress';
import { startFakeEmr, type FakeEmr } from '@/test/fakes/fake-emr';
import { createTenant } from '@/test/support/factories';
import { createTestDatabase, type TestDatabase } from '@/test/support/postgres';
import { EMR_PULL_QUEUE, emrPullHandler, queueSmartBackendPull, type EmrPullJobData } from './pull-job';

const CLIENT_ID = 'job-client';
const HOUR = 60 * 60_000;

let database: TestDatabase;
let db: Db;
let emr: FakeEmr;
let config: Config;
let clinicId: string;
let connectionId: string;
/** The simulated clock of the running test; the fake checks our client assertions against it. */
let simulatedClock = () => new Date();

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDb({ kind: 'postgres', url: database.url });
  const pair = await generateKeyPair('RS384', { extractable: true });
  emr = await startFakeEmr({
    clientId: CLIENT_ID,
    publicKeyPem: await exportSPKI(pair.publicKey),
    bulkExport: {},
    clock: () => simulatedClock(),
  });
  const tenant = await createTenant(db, 'PullJob');
  clinicId = tenant.clinicId;
  config = parseConfig({
    SVC_ENV: 'sandbox',
    DATABASE_URL: database.url,
    SMART_CLIENT_ID: CLIENT_ID,
    SMART_PRIVATE_KEY: await exportPKCS8(pair.privateKey),
    SMART_KEY_ID: 'k1',
    EMR_VENDORS: JSON.stringify({
      'smart-backend': { tokenUrl: emr.tokenUrl, fhirBaseUrl: emr.fhirBaseUrl, groups: { [clinicId]: '*' } },
    }),
  });
  const boss = await startBoss({ config, db, log: createLogger('silent') }, { works: false });
  await boss.createQueue(EMR_PULL_QUEUE);
  ({ id: connectionId } = await db.emrConnection.create({
    data: { id: 'conn_job_1', clinicId, vendor: 'smart-backend', status: 'connected' },
    select: { id: true },
  }));
}, 60_000);
afterEach(() => emr.bulkNext({}));
afterAll(async () => {
  await (await requireBoss()).stop({ graceful: false, timeout: 1000 });
  await emr?.close();
  await db?.$disconnect();
  await database?.drop();
});

/** A simulated clock: every sleep moves it on at once; `onSleep` may act between polls. */
function simulatedTime(onSleep?: (count: number) => Promise<void>) {
  let now = Date.now();
  const start = now;
  const sleeps: number[] = [];
  simulatedClock = () => new Date(now);
  return {
    sleeps,
    clock: () => new Date(now),
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
      await onSleep?.(sleeps.length);
    },
    elapsedMs: () => now - start,
  };
}

async function queueAndWork(time: ReturnType<typeof simulatedTime>) {
  const deps = { db, clock: time.clock, config };
  const queued = await queueSmartBackendPull(deps, { connectionId, clinicId, correlationId: 'corr-job' });
  expect(queued.status).toBe('queued');
  const data: EmrPullJobData = (
    await db.$queryRawUnsafe<Array<{ data: EmrPullJobData }>>(
      "SELECT data FROM pgboss.job WHERE name = 'emr-pull' AND data->>'syncRunId' = $1",
      queued.syncRunId,
    )
  )[0]!.data;
  const handler = emrPullHandler({
    db,
    clock: time.clock,
    config,
    fhirStore: embeddedFhirStore(db),
    egress: createEgress({ mode: 'sandbox', allowedOrigins: [] }),
    sleep: time.sleep,
    cancelCheckMs: 20,
  });
  const output = await handler.run({ id: 'job-1', data, retryCount: 0, signal: new AbortController().signal });
  const run = await db.syncRun.findUniqueOrThrow({ where: { id: queued.syncRunId } });
  return { output, run, syncRunId: queued.syncRunId };
}

const storedPatients = () => db.fhirResource.count({ where: { clinicId, resourceType: 'Patient' } });

describe('the emr-pull job', () => {
  it('completes a 2-hour export polled every 10 minutes, on the queued run', async () => {
    emr.bulkNext({ pollsBeforeReady: 12, retryAfter: '600' });
    const polls = emr.bulk.polls;
    const time = simulatedTime();
    const { output, run } = await queueAndWork(time);
    expect(time.elapsedMs()).toBe(2 * HOUR);
    expect(time.sleeps).toEqual(Array(12).fill(10 * 60_000));
    expect(emr.bulk.polls - polls).toBe(13);
    expect(output).toMatchObject({ pulled: true, upserted: { Patient: 2, Observation: 6 } });
    expect(run).toMatchObject({ status: 'succeeded', progress: { phase: 'done' }, error: null });
    expect(run.counts).toMatchObject({ Patient: { created: 2 } });
    expect(await storedPatients()).toBe(2);
  });

  it('stops a cancelled export at its next poll: the export is DELETEd, the run cancelled, nothing saved', async () => {
    await db.fhirResource.deleteMany({ where: { clinicId } });
    emr.bulkNext({ pollsBeforeReady: 100, retryAfter: '1800' });
    const deletes = emr.bulk.deletes.length;
    let syncRunId = '';
    const time = simulatedTime(async (count) => {
      if (count !== 3) return;
      syncRunId = (await db.syncRun.findFirstOrThrow({ where: { status: 'running' } })).id;
      await db.syncRun.update({ where: { id: syncRunId }, data: { status: 'cancelling' } });
      await new Promise((resolve) => setTimeout(resolve, 200)); // the worker's look at the row (every 20 ms here)
    });
    const { output, run } = await queueAndWork(time);
    expect(run.id).toBe(syncRunId);
    expect(output).toEqual({ pulled: false, cancelled: true });
    expect(run).toMatchObject({ status: 'cancelled', progress: { phase: 'cancelled' } });
    expect(time.elapsedMs()).toBe(3 * 30 * 60_000);
    expect(emr.bulk.deletes.length - deletes).toBe(1);
    expect(await storedPatients()).toBe(0);
    expect(await db.fhirStagedResource.count({ where: { syncRunId } })).toBe(0);
  });

  it('does nothing for a run cancelled while it was queued', async () => {
    const kickOffs = emr.bulk.kickOffs.length;
    const time = simulatedTime();
    const queued = await queueSmartBackendPull(
      { db, clock: time.clock, config },
      { connectionId, clinicId, correlationId: 'corr-queued' },
    );
    await db.syncRun.update({ where: { id: queued.syncRunId }, data: { status: 'cancelled' } });
    const handler = emrPullHandler({
      db,
      clock: time.clock,
      config,
      fhirStore: embeddedFhirStore(db),
      egress: createEgress({ mode: 'sandbox', allowedOrigins: [] }),
    });
    const data = { syncRunId: queued.syncRunId, clinicId, connectionId, correlationId: 'corr-queued' };
    expect(await handler.run({ id: 'job-2', data, retryCount: 0, signal: new AbortController().signal })).toEqual({
      pulled: false,
    });
    expect(emr.bulk.kickOffs.length).toBe(kickOffs);
  });

  it('records why a queued pull was refused when its job started (the clinic was unbound meanwhile)', async () => {
    const time = simulatedTime();
    const queued = await queueSmartBackendPull(
      { db, clock: time.clock, config },
      { connectionId, clinicId, correlationId: 'corr-unbound' },
    );
    const unbound = {
      ...config,
      emrVendors: { 'smart-backend': { ...config.emrVendors['smart-backend']!, groups: {} } },
    };
    const handler = emrPullHandler({
      db,
      clock: time.clock,
      config: unbound,
      fhirStore: embeddedFhirStore(db),
      egress: createEgress({ mode: 'sandbox', allowedOrigins: [] }),
    });
    const data = { syncRunId: queued.syncRunId, clinicId, connectionId, correlationId: 'corr-unbound' };
    await expect(
      handler.run({ id: 'job-4', data, retryCount: 0, signal: new AbortController().signal }),
    ).rejects.toThrow();
    expect(await db.syncRun.findUniqueOrThrow({ where: { id: queued.syncRunId } })).toMatchObject({
      status: 'failed',
      counts: { error: 'FORBIDDEN' },
    });
  });

  it('fails a run whose worker died (its dead letter)', async () => {
    const time = simulatedTime();
    const queued = await queueSmartBackendPull(
      { db, clock: time.clock, config },
      { connectionId, clinicId, correlationId: 'corr-dead' },
    );
    await db.syncRun.update({ where: { id: queued.syncRunId }, data: { status: 'running' } });
    const handler = emrPullHandler({
      db,
      clock: time.clock,
      config,
      fhirStore: embeddedFhirStore(db),
      egress: createEgress({ mode: 'sandbox', allowedOrigins: [] }),
    });
    const data = { syncRunId: queued.syncRunId, clinicId, connectionId, correlationId: 'corr-dead' };
    await handler.onDead!({ id: 'job-3', data });
    await handler.onDead!({ id: 'job-3', data });
    expect(await db.syncRun.findUniqueOrThrow({ where: { id: queued.syncRunId } })).toMatchObject({
      status: 'failed',
      error: 'The pull stopped before it finished (its worker stopped, or it ran past 24 hours); nothing was saved',
    });
  });
});
