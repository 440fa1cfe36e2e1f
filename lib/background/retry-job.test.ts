// POST /api/jobs/{id}/retry's domain on a real PostgreSQL and pg-boss: a failed job goes back to its queue, audited;
// a dead EMR pull or bulk export is refused (409), because its dead letter already closed the run or the export and
// a retried job would complete at once doing nothing: the user starts a new one instead.
import type { PgBoss } from 'pg-boss';
import { startTestBoss } from '@/test/support/test-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db';
import { AppError } from '@/lib/errors';
import { EMR_PULL_QUEUE } from '@/lib/emr/pull-job';
import { BULK_EXPORT_QUEUE } from '@/lib/fhir/bulk-export/run-bulk-export-job';
import { createTenant, createUser, type TestTenant, type TestUser } from '@/test/support/factories';
import { createTestDatabase, type TestDatabase } from '@/test/support/postgres';
import { retryJob } from './retry-job';

let database: TestDatabase;
let db: Db;
let boss: PgBoss;
let tenant: TestTenant;
let admin: TestUser;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDb({ kind: 'postgres', url: database.url });
  boss = await startTestBoss(
    database.url,
    Object.fromEntries([EMR_PULL_QUEUE, BULK_EXPORT_QUEUE, 'remittances.era-post'].map((q) => [q, { retryLimit: 0 }])),
  );
  tenant = await createTenant(db, 'Retry');
  admin = await createUser(db, tenant, { scopes: ['users:admin'] });
}, 60_000);

afterAll(async () => {
  await boss?.stop({ graceful: false, timeout: 1000 });
  await db?.$disconnect();
  await database?.drop();
});

/** A job of the clinic that failed for good. */
async function failedJob(queue: string): Promise<string> {
  const id = (await boss.send(queue, { clinicId: tenant.clinicId, correlationId: 'corr' }))!;
  await boss.fetch(queue);
  await boss.fail(queue, id, { name: 'JobFailure', message: 'It stopped' });
  return id;
}

const retry = (id: string) =>
  retryJob(
    { db, boss },
    { clinicId: tenant.clinicId, orgId: tenant.orgId, userId: admin.id, correlationId: 'corr-retry', id },
  );

describe('retryJob', () => {
  it('puts a failed job back on its queue, audited', async () => {
    const id = await failedJob('remittances.era-post');
    expect(await retry(id)).toEqual({ id, queue: 'remittances.era-post', state: 'retry' });
    expect(await boss.getJobById('remittances.era-post', id)).toMatchObject({ state: 'retry' });
    expect(await db.auditLog.count({ where: { action: 'jobs.retry', outcome: 'success' } })).toBe(1);
  });

  it.each([
    [EMR_PULL_QUEUE, 'This EMR pull stopped for good and cannot be run again; start a new pull'],
    [BULK_EXPORT_QUEUE, 'This bulk export stopped for good and cannot be run again; start a new export'],
  ])('refuses a dead %s job with 409 NOT_EXECUTABLE, leaving it failed', async (queue, message) => {
    const id = await failedJob(queue);
    await expect(retry(id)).rejects.toThrow(new AppError('NOT_EXECUTABLE', message));
    await expect(retry(id)).rejects.toMatchObject({ code: 'NOT_EXECUTABLE' });
    expect(await boss.getJobById(queue, id)).toMatchObject({ state: 'failed' });
  });
});
