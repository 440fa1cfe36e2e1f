// GET /api/jobs's domain on a real PostgreSQL and pg-boss: each schedule the clinic sees says how its last run
// ended (its state, and its error in words), so a schedule that fails every run does not look healthy.
import type { PgBoss } from 'pg-boss';
import { startTestBoss } from '@/test/support/test-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db';
import { createTenant, type TestTenant } from '@/test/support/factories';
import { createTestDatabase, type TestDatabase } from '@/test/support/postgres';
import { listJobs } from './list-jobs';

let database: TestDatabase;
let db: Db;
let boss: PgBoss;
let clinic: TestTenant;

const NEW_YORK = 'America/New_York';
const NAMES = ['schedule.claim-status-follow-up', 'schedule.era-retrieval', 'schedule.reconciliation'];

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDb({ kind: 'postgres', url: database.url });
  boss = await startTestBoss(database.url, Object.fromEntries(NAMES.map((name) => [name, { retryLimit: 0 }])));
  clinic = await createTenant(db, 'Jobs');
}, 60_000);

afterAll(async () => {
  await boss?.stop({ graceful: false, timeout: 1000 });
  await db?.$disconnect();
  await database?.drop();
});

/** A schedule whose last job (as pg-boss's cron pass records it) ended as `end` says. */
async function scheduleWithLastRun(name: string, cron: string, key: string, end?: 'completed' | 'failed') {
  await boss.schedule(name, cron, { timeZone: key }, { tz: key, key });
  if (!end) return;
  const id = (await boss.send(name, { timeZone: key }))!;
  await boss.fetch(name);
  if (end === 'completed') await boss.complete(name, id, { clinics: [] });
  else
    await boss.fail(name, id, {
      name: 'JobFailure',
      message: 'Claim status follow-up failed for 1 of 2 clinics; the others were followed up',
      stack: 'JobFailure: …\n    at x',
    });
  await db.$executeRawUnsafe(
    'UPDATE pgboss.schedule SET last_job_id = $1::uuid WHERE name = $2 AND key = $3',
    id,
    name,
    key,
  );
}

describe('the schedules of GET /api/jobs', () => {
  it("carry their last run's state and its error in words, or null for both before a first run", async () => {
    await scheduleWithLastRun('schedule.claim-status-follow-up', '0 7 * * *', NEW_YORK, 'failed');
    await scheduleWithLastRun('schedule.era-retrieval', '0 * * * *', 'UTC', 'completed');
    await scheduleWithLastRun('schedule.reconciliation', '0 2 * * *', NEW_YORK);
    // Another zone's schedule is not the clinic's.
    await scheduleWithLastRun('schedule.reconciliation', '0 2 * * *', 'Europe/Berlin', 'failed');

    const now = new Date('2026-11-28T12:00:00Z');
    const { schedules } = await listJobs(
      { db, boss, clock: () => now },
      { clinicId: clinic.clinicId, scheduleNames: NAMES },
    );
    expect(schedules).toEqual([
      {
        name: 'schedule.claim-status-follow-up',
        cron: '0 7 * * *',
        timeZone: NEW_YORK,
        lastRunAt: expect.any(String),
        nextRunAt: '2026-11-29T12:00:00.000Z',
        lastRunState: 'failed',
        lastRunError: 'Claim status follow-up failed for 1 of 2 clinics; the others were followed up',
      },
      {
        name: 'schedule.era-retrieval',
        cron: '0 * * * *',
        timeZone: 'UTC',
        lastRunAt: expect.any(String),
        nextRunAt: '2026-11-28T13:00:00.000Z',
        lastRunState: 'completed',
        lastRunError: null,
      },
      {
        name: 'schedule.reconciliation',
        cron: '0 2 * * *',
        timeZone: NEW_YORK,
        lastRunAt: null,
        nextRunAt: '2026-11-29T07:00:00.000Z',
        lastRunState: null,
        lastRunError: null,
      },
    ]);
  });
});
