// The numbers that tell payout files apart at the bank, on a real PostgreSQL: each file of a day its own File ID
// Modifier (A-Z then 0-9, the 37th refused), each entry its own trace number for good (never wrapping onto one the
// bank may still return, running out refused), racing creations included. The HTTP tests in test/api/payouts.test.ts
// cover the route, the checks and the file's content.
import { describe, expect, it } from 'vitest';
import { createTenant } from '@/test/support/factories';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import { createBatch } from './create-batch';
import { FILE_ID_MODIFIERS } from './allocate-file-numbers';
import { ORIGINATOR } from './originator';
import { actorOf, fileIdModifierOf, payoutAccount, payoutDeps, signedInstruction, uid } from './payout-db.test-support';

const t = setUpTwoClinicDb();
const odfi8 = ORIGINATOR.odfiRoutingNumber.slice(0, 8);

/** A clinic of its own (its stale batches are withdrawn by its own creations only) with a verified account. */
async function verifiedClinic() {
  const tenant = await createTenant(t.db, 'Numbering');
  await payoutAccount(t.db, tenant, { verified: true });
  return tenant;
}

/** Creates a batch of `count` fresh instructions of the clinic at `at`. */
async function batchAt(tenant: Awaited<ReturnType<typeof verifiedClinic>>, at: string, count = 1) {
  const instructionIds: string[] = [];
  for (let i = 0; i < count; i++) instructionIds.push((await signedInstruction(t.db, tenant)).id);
  return createBatch(payoutDeps(t.db, at), actorOf(tenant), { instructionIds });
}

const stored = (batchId: string) =>
  t.db.payoutBatch.findUniqueOrThrow({ where: { id: batchId }, include: { entries: true } });

/** A file already stored (confirmed, so no creation withdraws it), with the entry traces given. */
async function storedFile(day: string, fileIdModifier: string | null, traces: string[] = []) {
  const clinicId = t.south.clinicId;
  await t.db.payoutBatch.create({
    data: {
      id: uid('pbt'),
      clinicId,
      status: 'confirmed',
      traceNumber: traces[0] ?? uid('not-a-trace'),
      fileCreationDate: day,
      fileIdModifier,
      effectiveDate: day,
      entryCount: traces.length,
      totalCents: 0n,
      fileText: '',
      createdBy: 'test',
      entries: {
        create: traces.map((traceNumber) => ({ clinicId, traceNumber, amountCents: 100n, prenote: false })),
      },
    },
  });
}

describe('File ID Modifier', () => {
  it('gives two files created the same day A and B, and starts again at A the next day', async () => {
    const clinic = await verifiedClinic();
    const first = await batchAt(clinic, '2026-12-01T14:00:00Z');
    const second = await batchAt(clinic, '2026-12-01T21:30:00Z');
    for (const [batch, modifier] of [
      [first, 'A'],
      [second, 'B'],
    ] as const) {
      const row = await stored(batch.batchId);
      expect(row).toMatchObject({ fileCreationDate: '2026-12-01', fileIdModifier: modifier });
      expect(fileIdModifierOf(row.fileText)).toBe(modifier);
    }
    // Midnight in New York, not UTC, starts the next creation date.
    const nextDay = await batchAt(clinic, '2026-12-02T05:30:00Z');
    expect(await stored(nextDay.batchId)).toMatchObject({ fileCreationDate: '2026-12-02', fileIdModifier: 'A' });
  });

  it("counts the day's files stored before modifiers were kept (they all carried A), so a new one takes B", async () => {
    await storedFile('2026-12-03', null);
    const batch = await batchAt(await verifiedClinic(), '2026-12-03T15:00:00Z');
    expect(fileIdModifierOf((await stored(batch.batchId)).fileText)).toBe('B');
  });

  it('gives racing creations of one day distinct modifiers and traces that do not overlap', async () => {
    const clinics = await Promise.all(Array.from({ length: 4 }, verifiedClinic));
    const batches = await Promise.all(clinics.map((clinic) => batchAt(clinic, '2026-12-04T15:00:00Z', 3)));
    const rows = await Promise.all(batches.map((batch) => stored(batch.batchId)));
    expect(rows.map((row) => row.fileIdModifier).sort()).toEqual(['A', 'B', 'C', 'D']);
    const traces = rows.flatMap((row) => row.entries.map((entry) => entry.traceNumber));
    expect(new Set(traces).size).toBe(12);
  });

  it('refuses the 37th file of a day with 409 and writes nothing', async () => {
    for (const modifier of FILE_ID_MODIFIERS.slice(0, 35)) await storedFile('2026-12-08', modifier);
    const clinic = await verifiedClinic();
    const last = await batchAt(clinic, '2026-12-08T15:00:00Z');
    expect(fileIdModifierOf((await stored(last.batchId)).fileText)).toBe('9');

    const { id } = await signedInstruction(t.db, clinic);
    const before = await t.db.payoutBatch.count();
    await expect(
      createBatch(payoutDeps(t.db, '2026-12-08T16:00:00Z'), actorOf(clinic), { instructionIds: [id] }),
    ).rejects.toMatchObject({
      code: 'NOT_EXECUTABLE',
      message:
        '36 payout files were created on 2026-12-08, as many as the bank can tell apart in one day (File ID ' +
        'Modifiers A-Z, 0-9): create this batch on the next day',
    });
    expect(await t.db.payoutBatch.count()).toBe(before);
    expect(await t.db.payoutEntry.count({ where: { instructionId: id } })).toBe(0);
  });
});

describe('trace numbers', () => {
  it('gives each entry its own trace, ascending, the next batch following on', async () => {
    const clinic = await verifiedClinic();
    const first = await stored((await batchAt(clinic, '2026-12-09T15:00:00Z', 3)).batchId);
    const second = await stored((await batchAt(clinic, '2026-12-09T16:00:00Z', 2)).batchId);
    const sequences = (row: typeof first) =>
      row.entries.map((entry) => Number(entry.traceNumber.slice(8))).sort((a, b) => a - b);
    const [start] = sequences(first);
    expect(sequences(first)).toEqual([start, start! + 1, start! + 2]);
    expect(sequences(second)).toEqual([start! + 3, start! + 4]);
    expect(first.traceNumber).toBe(`${odfi8}${String(start).padStart(7, '0')}`);
  });

  it('follows the greatest trace stored, so the 10,001st batch does not take the first one', async () => {
    // What the 10,001st batch computed before: (10,001 × 1000) mod 10,000,000 + 1 = 1001, the first batch's trace.
    await t.db.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('"PayoutBatch"', 'sequence'), 10000)`);
    await storedFile('2026-11-02', null, [`${odfi8}0001001`, `${odfi8}0001002`]);
    await storedFile('2026-11-03', null, [`${odfi8}0020001`]);
    const batch = await stored((await batchAt(await verifiedClinic(), '2026-12-10T15:00:00Z', 2)).batchId);
    expect(batch.sequence).toBeGreaterThan(10_000);
    expect(batch.entries.map((entry) => entry.traceNumber).sort()).toEqual([`${odfi8}0020002`, `${odfi8}0020003`]);
  });

  it('refuses with its own 409 when the 7-digit traces are used up, and writes nothing', async () => {
    const clinic = await verifiedClinic();
    await storedFile('2026-11-04', null, [`${odfi8}9999998`]);
    // One trace left: the next batch takes it, and the one after is refused.
    const fits = await stored((await batchAt(clinic, '2026-12-11T15:00:00Z')).batchId);
    expect(fits.traceNumber).toBe(`${odfi8}9999999`);
    const before = await t.db.payoutBatch.count();
    await expect(batchAt(clinic, '2026-12-11T16:00:00Z')).rejects.toMatchObject({
      code: 'NOT_EXECUTABLE',
      message:
        'The ACH trace numbers of this originator are used up: no payout file can be created until the bank ' +
        'assigns new originator numbers',
    });
    expect(await t.db.payoutBatch.count()).toBe(before);
  });
});
