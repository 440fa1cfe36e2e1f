// The job engine on both databases it runs on (PostgreSQL and embedded PGlite): keyed enqueue, one claim per job
// among racing workers, a heartbeat that keeps a long job's lease while its worker lives, takeover of a dead
// worker's job one lease later, retries with doubling backoff, dead-lettering after maxAttempts (with the
// queue's onDead in the same transaction), cancellation seen by the worker, keyed runs done once, and the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db';
import { systemClock } from '@/lib/clock';
import { createTestDatabase, type TestDatabase } from '@/test/support/postgres';
import { claimNextJob } from './claim-next-job';
import { enqueueJob } from './enqueue-job';
import { listJobs } from './list-jobs';
import { runKeyedJob } from './run-keyed-job';
import { workNextJob } from './work-next-job';
import type { Job, JobHandler } from './job';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let queueCounter = 0;
const freshQueue = () => `test-${Date.now().toString(36)}-${queueCounter++}`;

function handler(queue: string, run: JobHandler['run'], more: Partial<JobHandler> = {}): JobHandler {
  return { queue, leaseMs: 300, backoffMs: 200, run, ...more };
}

describe.each(['postgres', 'pglite'] as const)('the job engine on %s', (kind) => {
  let db: Db;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    if (kind === 'postgres') {
      database = await createTestDatabase();
      db = await openDb({ kind: 'postgres', url: database.url });
    } else {
      db = await openDb({ kind: 'pglite', dataDir: 'memory://' });
    }
  });
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });
  const deps = () => ({ db, clock: systemClock });
  const enqueue = (queue: string, key?: string, maxAttempts = 3) =>
    enqueueJob(db, { queue, key, maxAttempts, payload: { n: 1 } }, new Date());

  it('queues work once per key', async () => {
    const queue = freshQueue();
    const first = await enqueue(queue, 'export-1');
    expect(first).toMatch(/^job_/);
    expect(await enqueue(queue, 'export-1')).toBeNull();
    expect(await db.job.count({ where: { queue } })).toBe(1);
    expect(await db.job.findUniqueOrThrow({ where: { id: first! } })).toMatchObject({
      state: 'queued',
      attempts: 0,
      payload: { n: 1 },
    });
  });

  it('gives each job to exactly one of many racing claimers', async () => {
    const queue = freshQueue();
    for (let i = 0; i < 5; i++) await enqueue(queue);
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        claimNextJob(db, { queue, leaseMs: 60_000, workerId: `w${i}`, now: new Date() }),
      ),
    );
    const ids = claims.filter((c): c is Job => c !== null).map((c) => c.id);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
  });

  it('keeps a job whose worker lives past its lease: the heartbeat renews it, so no one else claims it', async () => {
    const queue = freshQueue();
    const id = await enqueue(queue);
    let stolen: Job | null = null;
    const done = await workNextJob(
      deps(),
      handler(queue, async (_job, lease) => {
        for (let i = 0; i < 10; i++) {
          // 1 s: more than three leases of 300 ms
          await sleep(100);
          stolen ??= await claimNextJob(db, { queue, leaseMs: 300, workerId: 'thief', now: new Date() });
          lease.assertHeld();
        }
      }),
      'worker-a',
    );
    expect(done).toBe(true);
    expect(stolen).toBeNull();
    expect(await db.job.findUniqueOrThrow({ where: { id: id! } })).toMatchObject({
      state: 'completed',
      attempts: 1,
      lockedBy: 'worker-a',
      leaseToken: null,
    });
  });

  it("takes over a dead worker's job one lease after its last heartbeat", async () => {
    const queue = freshQueue();
    const id = await enqueue(queue);
    const dead = await claimNextJob(db, { queue, leaseMs: 300, workerId: 'killed', now: new Date() }); // never beats, never finishes
    expect(dead?.id).toBe(id);
    const run = handler(queue, async (_job, lease) => lease.complete(undefined, { by: 'survivor' }));
    expect(await workNextJob(deps(), run, 'survivor')).toBe(false); // still leased
    await sleep(350);
    expect(await workNextJob(deps(), run, 'survivor')).toBe(true);
    expect(await db.job.findUniqueOrThrow({ where: { id: id! } })).toMatchObject({
      state: 'completed',
      attempts: 2,
      lockedBy: 'survivor',
      result: { by: 'survivor' },
    });
  });

  it('retries a failing job after a doubling backoff, then dead-letters it and records the failure through onDead', async () => {
    const queue = freshQueue();
    const id = (await enqueue(queue, undefined, 2))!;
    const deadReasons: string[] = [];
    let runs = 0;
    const failing = handler(
      queue,
      async () => {
        runs++;
        throw new Error('upstream said no\nwith a body we never store');
      },
      {
        async onDead(tx, job, reason) {
          deadReasons.push(reason);
          await tx.job.update({ where: { id: job.id }, data: { result: { failed: true } } }); // proves the same transaction
        },
      },
    );
    const before = Date.now();
    expect(await workNextJob(deps(), failing, 'w')).toBe(true);
    const queued = await db.job.findUniqueOrThrow({ where: { id } });
    expect(queued).toMatchObject({
      state: 'queued',
      attempts: 1,
      leaseToken: null,
      lastError: 'Error: upstream said no',
    });
    expect(queued.runAfter.getTime()).toBeGreaterThanOrEqual(before + 200);
    expect(await workNextJob(deps(), failing, 'w')).toBe(false); // not due yet
    await sleep(250);
    expect(await workNextJob(deps(), failing, 'w')).toBe(true);
    expect(runs).toBe(2);
    expect(await db.job.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: 'dead',
      attempts: 2,
      lastError: expect.stringMatching(/^It failed on every attempt/),
      result: { failed: true },
    });
    expect(deadReasons).toEqual(['failed']);
    expect(await workNextJob(deps(), failing, 'w')).toBe(false);
  });

  it('dead-letters, without running it again, a job whose workers died maxAttempts times', async () => {
    const queue = freshQueue();
    const id = (await enqueue(queue, undefined, 2))!;
    await db.job.update({
      where: { id },
      data: { state: 'running', attempts: 2, leaseToken: 'gone', leaseUntil: new Date(Date.now() - 1000) },
    });
    let runs = 0;
    const reasons: string[] = [];
    expect(
      await workNextJob(
        deps(),
        handler(
          queue,
          async () => {
            runs++;
          },
          {
            onDead: async (_tx, _job, reason) => {
              reasons.push(reason);
            },
          },
        ),
        'w',
      ),
    ).toBe(true);
    expect(runs).toBe(0);
    expect(reasons).toEqual(['abandoned']);
    expect((await db.job.findUniqueOrThrow({ where: { id } })).lastError).toBe(
      'Its workers never finished it in 2 attempts',
    );
    expect(await db.job.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'dead', attempts: 3 });
  });

  it('stops a worker whose job was cancelled (deleted) mid-run, and its results are never written', async () => {
    const queue = freshQueue();
    const id = (await enqueue(queue))!;
    let wrote = false;
    let stoppedAt = -1;
    await workNextJob(
      deps(),
      handler(queue, async (_job, lease) => {
        await db.job.delete({ where: { id } });
        for (let i = 0; i < 20; i++) {
          await sleep(50);
          try {
            lease.assertHeld();
          } catch (error) {
            stoppedAt = i;
            throw error;
          }
        }
        await lease.complete(async () => {
          wrote = true;
        });
      }),
      'w',
    );
    expect(stoppedAt).toBeGreaterThanOrEqual(0);
    expect(wrote).toBe(false);
    expect(await db.job.count({ where: { id } })).toBe(0);
  });

  it('runs keyed work once for overlapping callers, who all answer with that run; a later caller runs it again', async () => {
    const queue = freshQueue();
    let runs = 0;
    const call = (correlationId: string) =>
      runKeyedJob(deps(), { queue, key: '2026-11-10', leaseMs: 300, correlationId, pollMs: 20 }, async () => {
        runs++;
        await sleep(400); // longer than the lease: the heartbeat keeps it
        return { run: runs, correlationId };
      });
    const results = await Promise.all(['c1', 'c2', 'c3'].map(call));
    expect(runs).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(await call('c4')).toEqual({ run: 2, correlationId: 'c4' });
    expect(await db.job.findFirstOrThrow({ where: { queue } })).toMatchObject({
      state: 'completed',
      attempts: 2,
      key: '2026-11-10',
      correlationId: 'c4',
    });
  });

  it('lets a waiting caller do keyed work itself when the run in flight fails', async () => {
    const queue = freshQueue();
    let runs = 0;
    const call = () =>
      runKeyedJob(deps(), { queue, key: 'k', leaseMs: 300, correlationId: 'c', pollMs: 20 }, async () => {
        runs++;
        await sleep(100);
        if (runs === 1) throw new Error('first run fails');
        return 'ok';
      });
    const outcomes = await Promise.allSettled([call(), call()]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(runs).toBe(2);
  });

  it('lists jobs with their state', async () => {
    const queue = freshQueue();
    const a = (await enqueue(queue, 'a'))!;
    await enqueue(queue, 'b');
    await claimNextJob(db, { queue, leaseMs: 60_000, workerId: 'host:1', now: new Date() });
    const jobs = await listJobs(db, { queue });
    expect(jobs.map((j) => [j.key, j.state, j.lockedBy]).sort()).toEqual([
      ['a', 'running', 'host:1'],
      ['b', 'queued', null],
    ]);
    expect(await listJobs(db, { queue, state: 'running' })).toEqual([expect.objectContaining({ id: a, attempts: 1 })]);
  });
});
