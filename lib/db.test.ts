// The PostgreSQL pool openDb makes, on a real server: a connection left idle is kept past pg's own 10 s default, so a
// burst after a quiet spell meets connections whose statements are already prepared.
import { describe, expect, it } from 'vitest';
import { setUpTwoClinicDb } from '@/test/support/test-db';

const t = setUpTwoClinicDb();

const backendPid = async () =>
  (await t.db.$queryRawUnsafe<{ pid: number }[]>('SELECT pg_backend_pid() AS pid'))[0]!.pid;

describe('openDb on PostgreSQL', () => {
  it('keeps a connection idle for longer than 10 s: the next statement runs on the same backend', async () => {
    const before = await backendPid();
    // pg closes a connection idle for 10 s unless told otherwise; a second more leaves room for its timer.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect(await backendPid()).toBe(before);
  }, 30_000);
});
