// Releasing a batch against its effective entry date, on a real PostgreSQL: released up to the evening before that
// date in New York; from that date on refused with 409 and withdrawn, so its instructions (or its prenote) go in a
// batch built again. The HTTP tests in test/api/payouts.test.ts cover the route, step-up and the release race.
import { describe, expect, it } from 'vitest';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import { createTenant } from '@/test/support/factories';
import { createBatch } from './create-batch';
import { releaseBatch } from './release-batch';
import { actorOf, payoutAccount, payoutDeps, signedInstruction } from './payout-db.test-support';

const t = setUpTwoClinicDb();

async function clinicWithAccount(verified: boolean) {
  const tenant = await createTenant(t.db, 'Release');
  await payoutAccount(t.db, tenant, { verified });
  return tenant;
}

const staleMessage = (effectiveDate: string) =>
  `The batch's effective entry date ${effectiveDate} has come, so its file would reach the bank stale-dated: the ` +
  'batch was withdrawn and its instructions are free; create the batch again';

describe('release and the effective entry date', () => {
  it('releases until the evening before the effective date in New York, weekends included', async () => {
    const clinic = await clinicWithAccount(true);
    const { id } = await signedInstruction(t.db, clinic);
    // Friday, effective Monday: Saturday 23:30 in New York (Sunday 04:30 UTC) is still before it.
    const batch = await createBatch(payoutDeps(t.db, '2026-12-04T15:00:00Z'), actorOf(clinic), {
      instructionIds: [id],
    });
    expect(batch.effectiveDate).toBe('2026-12-07');
    const released = await releaseBatch(payoutDeps(t.db, '2026-12-06T04:30:00Z'), actorOf(clinic), batch.batchId);
    expect(released.status).toBe('released');
  });

  it('refuses on the effective date with 409, withdraws the batch, and its instruction goes in a new one', async () => {
    const clinic = await clinicWithAccount(true);
    const { id, poolId } = await signedInstruction(t.db, clinic);
    const actor = actorOf(clinic);
    const stale = await createBatch(payoutDeps(t.db, '2026-12-08T15:00:00Z'), actor, { instructionIds: [id] });
    expect(stale.effectiveDate).toBe('2026-12-09');

    // 00:30 on the effective date in New York (05:30 UTC).
    await expect(releaseBatch(payoutDeps(t.db, '2026-12-09T05:30:00Z'), actor, stale.batchId)).rejects.toMatchObject({
      code: 'NOT_EXECUTABLE',
      message: staleMessage('2026-12-09'),
    });
    expect(await t.db.payoutBatch.findUnique({ where: { id: stale.batchId } })).toBeNull();
    expect(await t.db.payoutEntry.count({ where: { instructionId: id } })).toBe(0);
    expect(await t.db.settlementPool.findUniqueOrThrow({ where: { id: poolId } })).toMatchObject({
      availableCents: 1_000_000n, // the advance was never taken
    });
    const audit = await t.db.auditLog.findFirstOrThrow({
      where: { clinicId: clinic.clinicId, action: 'settlement.batch.withdraw' },
    });
    expect(audit.detail).toMatchObject({ batchId: stale.batchId, effectiveDate: '2026-12-09', instructionIds: [id] });
    // A second try finds nothing left to release.
    await expect(releaseBatch(payoutDeps(t.db, '2026-12-09T05:31:00Z'), actor, stale.batchId)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });

    const again = await createBatch(payoutDeps(t.db, '2026-12-09T15:00:00Z'), actor, { instructionIds: [id] });
    expect(again.effectiveDate).toBe('2026-12-10');
    const released = await releaseBatch(payoutDeps(t.db, '2026-12-09T16:00:00Z'), actor, again.batchId);
    expect(released).toMatchObject({ status: 'released', entries: [{ instructionId: id }] });
  });

  it('withdraws a stale prenote batch, so the account needs its prenote again', async () => {
    const clinic = await clinicWithAccount(false);
    const actor = actorOf(clinic);
    const prenote = await createBatch(payoutDeps(t.db, '2026-12-10T15:00:00Z'), actor, { instructionIds: [] });
    await expect(releaseBatch(payoutDeps(t.db, '2026-12-14T15:00:00Z'), actor, prenote.batchId)).rejects.toMatchObject({
      code: 'NOT_EXECUTABLE',
      message: staleMessage('2026-12-11'),
    });
    expect(await t.db.payoutAccount.findUniqueOrThrow({ where: { clinicId: clinic.clinicId } })).toMatchObject({
      prenoteBatchId: null,
      verifiedAt: null,
    });
    const next = await createBatch(payoutDeps(t.db, '2026-12-14T15:00:00Z'), actor, { instructionIds: [] });
    expect(next).toMatchObject({ entryCount: 1, totalCents: 0 });
  });

  it("withdraws the clinic's batches left unreleased past their effective date when it builds the next", async () => {
    const clinic = await clinicWithAccount(true);
    const other = await clinicWithAccount(true);
    const { id } = await signedInstruction(t.db, clinic);
    const theirs = await signedInstruction(t.db, other);
    const actor = actorOf(clinic);
    const forgotten = await createBatch(payoutDeps(t.db, '2026-12-15T15:00:00Z'), actor, { instructionIds: [id] });
    const otherStale = await createBatch(payoutDeps(t.db, '2026-12-15T15:00:00Z'), actorOf(other), {
      instructionIds: [theirs.id],
    });

    const rebuilt = await createBatch(payoutDeps(t.db, '2026-12-17T15:00:00Z'), actor, { instructionIds: [id] });
    expect(rebuilt.batchId).not.toBe(forgotten.batchId);
    expect(await t.db.payoutBatch.findUnique({ where: { id: forgotten.batchId } })).toBeNull();
    // Another clinic's stale batch is its own to withdraw.
    expect(await t.db.payoutBatch.findUnique({ where: { id: otherStale.batchId } })).not.toBeNull();
  });
});
