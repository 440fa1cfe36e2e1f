// The ACH return of a prenote, on a real PostgreSQL: it names no instruction, so its railReference (the prenote
// entry's trace number) finds it; the account it proved loses its verification once and needs a new prenote. The
// HTTP tests in test/api/payouts.test.ts cover an instruction's return through the banking webhook.
import { describe, expect, it } from 'vitest';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import { createTenant } from '@/test/support/factories';
import { BankingTransactionReturnedData } from '@/lib/webhooks/banking-transaction-returned';
import { createBatch } from './create-batch';
import { releaseBatch } from './release-batch';
import { confirmPayoutBatch } from './confirm-batch';
import { payoutAccountState } from './payout-account';
import { returnPayout } from './return-payout';
import { actorOf, payoutAccount, payoutDeps } from './payout-db.test-support';

const t = setUpTwoClinicDb();
const at = new Date('2026-12-03T15:00:00Z');

/** A clinic whose account the bank confirmed through a prenote batch; returns the prenote's trace number. */
async function verifiedByPrenote() {
  const clinic = await createTenant(t.db, 'Prenote');
  await payoutAccount(t.db, clinic, { verified: false });
  const deps = payoutDeps(t.db, '2026-12-01T15:00:00Z');
  const batch = await createBatch(deps, actorOf(clinic), { instructionIds: [] });
  await releaseBatch(deps, actorOf(clinic), batch.batchId);
  await t.db.$transaction((tx) =>
    confirmPayoutBatch(tx, {
      clinicId: clinic.clinicId,
      traceNumber: batch.traceNumber,
      amountCents: 0n,
      postedAt: new Date('2026-12-02T15:00:00Z'),
      correlationId: 'test',
    }),
  );
  return { clinic, trace: batch.traceNumber, batchId: batch.batchId };
}

const prenoteReturn = (clinicId: string, railReference: string, returnCode = 'R03') =>
  t.db.$transaction((tx) =>
    returnPayout(tx, {
      clinicId,
      instructionId: null,
      railReference,
      returnCode,
      amountCents: 0n,
      at,
      correlationId: 'test',
    }),
  );

const account = (clinicId: string) => t.db.payoutAccount.findUniqueOrThrow({ where: { clinicId } });

describe('a returned prenote', () => {
  it('is found by its trace number, marks its entry once and sends the account back to needing a prenote', async () => {
    const { clinic, trace } = await verifiedByPrenote();
    expect(payoutAccountState(await account(clinic.clinicId))).toBe('verified');

    expect(await prenoteReturn(clinic.clinicId, trace)).toBe('returned');
    expect(await account(clinic.clinicId)).toMatchObject({ verifiedAt: null, prenoteBatchId: null });
    expect(payoutAccountState(await account(clinic.clinicId))).toBe('needs_prenote');
    expect(await t.db.payoutEntry.findUniqueOrThrow({ where: { traceNumber: trace } })).toMatchObject({
      prenote: true,
      returnCode: 'R03',
      returnedAt: at,
    });
    expect(await prenoteReturn(clinic.clinicId, trace, 'R04')).toBe('already-returned');
    expect((await t.db.payoutEntry.findUniqueOrThrow({ where: { traceNumber: trace } })).returnCode).toBe('R03');

    // The next batch carries a new prenote.
    const next = await createBatch(payoutDeps(t.db, '2026-12-03T15:00:00Z'), actorOf(clinic), { instructionIds: [] });
    expect(next).toMatchObject({ entryCount: 1, totalCents: 0 });
  });

  it('leaves an account replaced since alone: it awaits its own prenote', async () => {
    const { clinic, trace } = await verifiedByPrenote();
    await payoutAccount(t.db, clinic, { verified: false }); // a new account: unverified, no prenote yet
    const newPrenote = await createBatch(payoutDeps(t.db, '2026-12-03T15:00:00Z'), actorOf(clinic), {
      instructionIds: [],
    });
    expect(await prenoteReturn(clinic.clinicId, trace)).toBe('returned');
    expect(await account(clinic.clinicId)).toMatchObject({ prenoteBatchId: newPrenote.batchId });
  });

  it("is unknown for another clinic's trace or a trace that is no prenote's", async () => {
    const { trace } = await verifiedByPrenote();
    expect(await prenoteReturn(t.south.clinicId, trace)).toBe('unknown-entry');
    expect(await prenoteReturn(t.north.clinicId, '021000029999999')).toBe('unknown-entry');
  });

  it('reaches the webhook without an instructionId, which a prenote does not have', () => {
    const data = { transactionId: 'btx_1', railReference: '021000020000001', amountCents: 0, returnCode: 'R03' };
    expect(BankingTransactionReturnedData.parse(data)).toEqual(data);
  });
});
