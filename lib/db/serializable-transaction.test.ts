// Overlapping RepeatableRead transactions on a real PostgreSQL: one of two writers of the same row is aborted
// with 40001; through serializableTransaction both callers succeed and the row holds both effects.
import { describe, expect, it } from 'vitest';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import { isSerializationFailure, serializableTransaction } from './serializable-transaction';

const t = setUpTwoClinicDb();

/** Both transactions read the row, wait for each other, then write it: the second writer must fail once. */
async function overlappingIncrements(run: (fn: Parameters<typeof serializableTransaction>[1]) => Promise<unknown>) {
  const id = `ctr-${crypto.randomUUID()}`;
  await t.db.rateLimitCounter.create({ data: { key: id, windowStart: new Date(), count: 0 } });
  let arrived = 0;
  let release!: () => void;
  const bothRead = new Promise<void>((resolve) => (release = resolve));
  const increment = () =>
    run(async (tx) => {
      const row = await tx.rateLimitCounter.findUniqueOrThrow({ where: { key: id } });
      if (++arrived === 2) release();
      await Promise.race([bothRead, new Promise((r) => setTimeout(r, 300))]);
      await tx.rateLimitCounter.update({ where: { key: id }, data: { count: row.count + 1 } });
    });
  const outcomes = await Promise.allSettled([increment(), increment()]);
  const final = await t.db.rateLimitCounter.findUniqueOrThrow({ where: { key: id } });
  return { outcomes, count: final.count };
}

describe('serializableTransaction', () => {
  it('without it, one of two overlapping RepeatableRead writers fails with a serialization failure', async () => {
    const { outcomes } = await overlappingIncrements((fn) =>
      t.db.$transaction(fn, { isolationLevel: 'RepeatableRead' }),
    );
    const rejected = outcomes.filter((o) => o.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(isSerializationFailure((rejected[0] as PromiseRejectedResult).reason)).toBe(true);
  });

  it('retries the aborted one: both callers succeed and neither effect is lost', async () => {
    const { outcomes, count } = await overlappingIncrements((fn) =>
      serializableTransaction(t.db, fn, { isolationLevel: 'RepeatableRead' }),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(count).toBe(2);
  });

  it('does not retry other failures', async () => {
    let calls = 0;
    await expect(
      serializableTransaction(
        t.db,
        async () => {
          calls++;
          throw new Error('not a conflict');
        },
        { isolationLevel: 'Serializable' },
      ),
    ).rejects.toThrow('not a conflict');
    expect(calls).toBe(1);
  });
});
