// The NACHA file is served only once its batch is released (the release is what commits the money), on a real
// PostgreSQL. The HTTP tests in test/api/payouts.test.ts read the served file back with an independent reader.
import { describe, expect, it } from 'vitest';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import { batchFile } from './batch-view';
import { createBatch } from './create-batch';
import { releaseBatch } from './release-batch';
import { confirmPayoutBatch } from './confirm-batch';
import { actorOf, payoutAccount, payoutDeps, signedInstruction } from './payout-db.test-support';

const t = setUpTwoClinicDb();

describe('the batch file', () => {
  it('answers 409 while the batch is created, and serves the exact file once released and once confirmed', async () => {
    await payoutAccount(t.db, t.north, { verified: true });
    const { id } = await signedInstruction(t.db, t.north, 7_000n);
    const deps = payoutDeps(t.db, '2026-12-01T15:00:00Z');
    const batch = await createBatch(deps, actorOf(t.north), { instructionIds: [id] });

    await expect(batchFile(deps, t.north.clinicId, batch.batchId)).rejects.toMatchObject({
      code: 'NOT_EXECUTABLE',
      message: 'The file of a payout batch is served once the batch is released: release it first',
    });
    // Another clinic learns nothing, not even that the batch exists.
    await expect(batchFile(deps, t.south.clinicId, batch.batchId)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    await releaseBatch(deps, actorOf(t.north), batch.batchId);
    const { fileText } = await t.db.payoutBatch.findUniqueOrThrow({ where: { id: batch.batchId } });
    const released = await batchFile(deps, t.north.clinicId, batch.batchId);
    expect(released.status).toBe(200);
    expect(await released.text()).toBe(fileText);

    await t.db.$transaction((tx) =>
      confirmPayoutBatch(tx, {
        clinicId: t.north.clinicId,
        traceNumber: batch.traceNumber,
        amountCents: 7_000n,
        postedAt: new Date('2026-12-02T15:00:00Z'),
        correlationId: 'test',
      }),
    );
    expect(await (await batchFile(deps, t.north.clinicId, batch.batchId)).text()).toBe(fileText);
  });
});
