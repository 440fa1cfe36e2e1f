// DATABASE_POOL_TIMEOUT_MS (DECISIONS "Fleet operations"): an instance whose database pool is saturated answers
// 503 DEPENDENCY_UNAVAILABLE with Retry-After once a request has waited that long for a connection, counted in its
// log, instead of queueing requests for as long as the busy connections take; once they free, it serves again.
// The instance gets a pool of one connection; a lock taken from outside holds that connection inside a request.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { attemptSignIn, signIn, type HttpClient } from '../support/http';

const POOL_TIMEOUT_MS = 300;
let app: TestApp;
let billing: HttpClient;

beforeAll(async () => {
  app = await startApp({ env: { DATABASE_POOL_SIZE: '1', DATABASE_POOL_TIMEOUT_MS: String(POOL_TIMEOUT_MS) } });
  billing = await signIn(app, 'billing@northside.test');
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

/** Every read of "User" (each request's session check) waits until release(). */
async function holdUsers(): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: app.database!.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE "User" IN ACCESS EXCLUSIVE MODE');
  return {
    async release() {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

const timed = async <T>(call: () => Promise<T>) => {
  const started = performance.now();
  const result = await call();
  return { result, ms: performance.now() - started };
};

describe('a saturated instance sheds load with 503 and recovers', () => {
  it('answers 503 with Retry-After within the pool timeout while its one connection is busy, then serves again', async () => {
    const held = await holdUsers();
    let holding: Promise<{ status: number }> | undefined;
    try {
      // This request takes the pool's only connection and waits on the lock with it.
      holding = billing.get('/api/claims');
      await new Promise((r) => setTimeout(r, 500));
      const shed = await Promise.all(Array.from({ length: 10 }, () => timed(() => billing.get('/api/claims'))));
      for (const { result, ms } of shed) {
        expect(result.status).toBe(503);
        expect(result.body).toMatchObject({
          code: 'DEPENDENCY_UNAVAILABLE',
          message: 'The service is busy; try again shortly',
        });
        expect(result.headers.get('retry-after')).toBe('1');
        // Shed at the timeout, not queued until the lock goes (it is held for as long as this test wants).
        expect(ms).toBeGreaterThanOrEqual(POOL_TIMEOUT_MS - 50);
        expect(ms).toBeLessThan(2500);
      }
      // Sign-in runs through next-auth's handler, not the route wrapper, and sheds the same way.
      const signInShed = await timed(() => attemptSignIn(app, 'admin@northside.test', 'demo-password-1'));
      const { response } = signInShed.result;
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', url: expect.any(String) });
      expect(response.headers.get('retry-after')).toBe('1');
      expect(signInShed.ms).toBeLessThan(2500);
    } finally {
      await held.release();
    }
    // The held request finishes normally, and the instance serves again at once.
    expect((await holding!).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await billing.get('/api/claims')).status).toBe(200);
    expect((await attemptSignIn(app, 'admin@northside.test', 'demo-password-1')).response.status).toBe(200);
    // Each shed request is counted in the log with the running total.
    const counts = app
      .logs()
      .split('\n')
      .filter((line) => line.includes('no database connection within the pool timeout'))
      .map((line) => (JSON.parse(line) as { poolTimeouts: number }).poolTimeouts);
    expect(counts.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  }, 60_000);
});
