// The way out on SIGTERM, on a real HTTP server and a real pg-boss: what is in flight (a request, a job) finishes
// before the process exits 143; a job still running at the deadline is failed by pg-boss, so another instance
// retries it at once instead of after its expiry, and the process exits anyway.
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@/lib/log';
import { createTestDatabase, type TestDatabase } from '@/test/support/postgres';
import { installGracefulExit } from './exit-gracefully';

let database: TestDatabase;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = createLogger('silent');

beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  await database?.drop();
});

async function startBoss(queue: string, handler: (signal: AbortSignal) => Promise<unknown>) {
  const boss = new PgBoss({ connectionString: database.url, max: 2, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.createQueue(queue, { retryLimit: 1, retryDelay: 60 });
  await boss.work(queue, { pollingIntervalSeconds: 0.5 }, async ([job]) => handler(job!.signal));
  const id = (await boss.send(queue, {}))!;
  for (let i = 0; i < 100 && (await boss.getJobById(queue, id))?.state !== 'active'; i++) await sleep(50);
  return { boss, id };
}

/** A server whose every answer takes `answerMs`, listening on a free port. */
async function startServer(answerMs: number) {
  const server = http.createServer((_req, res) => void sleep(answerMs).then(() => res.end('answered')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

/** Installs the handlers on a stand-in for `process`; resolves with the exit code once they exit. */
function install(stopWork: () => Promise<void>, deadlineMs: number) {
  const signals = new EventEmitter();
  const exited = new Promise<number>((exit) => installGracefulExit({ log, stopWork, deadlineMs, signals, exit }));
  return { signals, exited };
}

describe('SIGTERM', () => {
  it('lets the request and the job in flight finish, then exits 143', async () => {
    const { boss, id } = await startBoss('slow', async () => {
      await sleep(800);
      return { done: true };
    });
    const { server, url } = await startServer(500);
    const { signals, exited } = install(() => boss.stop({ graceful: true, timeout: 10_000 }), 10_000);
    const answer = fetch(url).then(async (res) => [res.status, await res.text()]);
    await sleep(100); // the request is in flight

    const started = Date.now();
    signals.emit('SIGTERM');
    signals.emit('SIGTERM'); // a second signal (a shell's ^C reaches every process of the group) changes nothing
    expect(await exited).toBe(143);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await answer).toEqual([200, 'answered']);
    expect(server.listening).toBe(false);
    const inspect = new PgBoss({ connectionString: database.url, max: 1, supervise: false, schedule: false });
    await inspect.start();
    expect(await inspect.getJobById('slow', id)).toMatchObject({ state: 'completed', output: { done: true } });
    await inspect.stop({ graceful: false });
  });

  it('fails a job still running at the deadline for a retry, and exits anyway', async () => {
    const { boss, id } = await startBoss(
      'stuck',
      (signal) => new Promise((resolve) => signal.addEventListener('abort', resolve)),
    );
    const { signals, exited } = install(() => boss.stop({ graceful: true, timeout: 1_000 }), 1_000);
    const started = Date.now();
    signals.emit('SIGINT');
    expect(await exited).toBe(130);
    expect(Date.now() - started).toBeLessThan(5_000);
    const inspect = new PgBoss({ connectionString: database.url, max: 1, supervise: false, schedule: false });
    await inspect.start();
    expect(await inspect.getJobById('stuck', id)).toMatchObject({
      state: 'retry',
      output: { value: 'pg-boss shut down while active' },
    });
    await inspect.stop({ graceful: false });
  });
});
