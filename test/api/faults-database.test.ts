// PostgreSQL restarting under a running app: requests answer a typed 503 (never a 500 or a hang), nothing is
// half-written, and the app recovers by itself once the database is back, without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { migrationSql } from '../support/postgres';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';

describe('database restart', () => {
  let postgres: PrivatePostgres;
  let app: TestApp;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    for (const sql of migrationSql()) await client.query(sql);
    await client.end();
    app = await startApp({ reuse: { url: postgres.url, name: 'postgres', drop: async () => {} } });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    postgres?.destroy();
  });

  it('answers 503 DEPENDENCY_UNAVAILABLE while PostgreSQL is down and recovers without an app restart', async () => {
    const staff = await signIn(app, 'frontdesk@northside.test');
    const anonymous = new HttpClient(app.url);
    expect((await staff.get('/api/appointments?date=2026-01-01')).status).toBe(200);

    postgres.stop();
    const health = await anonymous.get('/api/health');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'The database is unavailable',
      correlationId: expect.any(String),
    });
    const route = await staff.get('/api/appointments?date=2026-01-01');
    expect(route.status).toBe(503);
    expect(route.body).toEqual({
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'A dependency is unavailable; try again shortly',
      correlationId: expect.any(String),
    });

    postgres.start();
    let recovered = 0;
    for (let attempt = 0; attempt < 20 && recovered !== 200; attempt++) {
      recovered = (await staff.get('/api/appointments?date=2026-01-01')).status;
      if (recovered !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(recovered).toBe(200);
    expect((await anonymous.get('/api/health')).status).toBe(200);
  }, 60_000);
});
