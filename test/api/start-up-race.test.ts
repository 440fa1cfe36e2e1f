// Several instances started together on one PostgreSQL (migrations already applied): every start-up write is
// insert-if-absent, so all of them come up healthy and the demo tenant is seeded exactly once.
import { afterAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/postgres';

let database: TestDatabase;
const apps: TestApp[] = [];

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
  await database?.drop();
});

describe('three sandbox instances starting at the same moment', () => {
  it('all answer health ok, and the demo tenant and today\'s appointments exist once', async () => {
    database = await createTestDatabase();
    const started = await Promise.allSettled([1, 2, 3].map(() => startApp({ reuse: database })));
    for (const result of started) if (result.status === 'fulfilled') apps.push(result.value);
    expect(started.map((r) => (r.status === 'rejected' ? String(r.reason).slice(0, 400) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
    for (const app of apps) {
      const health = await fetch(`${app.url}/api/health`);
      expect(health.status).toBe(200);
    }
    const db = apps[0]!.db;
    expect(await db.organization.count({ where: { id: 'org_demo' } })).toBe(1);
    expect(await db.user.count({ where: { orgId: 'org_demo' } })).toBe(5);
    expect(await db.patient.count()).toBe(20);
    expect(await db.appointment.count()).toBe(20);
  }, 180_000);
});
