// The PHI access log against a real PostgreSQL database: it is also the last scope check, so a list naming any
// patient outside the caller's clinic logs nothing at all, and a log row never names a read that was refused.
import { describe, expect, it } from 'vitest';
import { isAppError } from '@/lib/errors';
import { createPatient } from '@/test/support/factories';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import { recordPhiAccess, type PhiAccess } from './record-phi-access';

const t = setUpTwoClinicDb();

let seq = 0;
const access = (): PhiAccess => ({
  orgId: t.north.orgId,
  clinicId: t.north.clinicId,
  userId: 'user_clerk',
  purpose: 'eligibility.verify',
  correlationId: `corr-${seq++}`,
});

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return isAppError(error) ? { code: error.code, message: error.message } : error;
}

describe('recordPhiAccess', () => {
  it('logs one row per patient of the clinic, duplicates collapsed, at the given time', async () => {
    const [a, b] = [await createPatient(t.db, t.north), await createPatient(t.db, t.north)];
    const at = new Date('2026-03-04T05:06:07.890Z');
    const who = access();
    await recordPhiAccess(t.db, who, [a.id, b.id, a.id], at);
    const rows = await t.db.phiAccessLog.findMany({
      where: { correlationId: who.correlationId },
      orderBy: { patientId: 'asc' },
    });
    expect(rows.map(({ id: _id, ...row }) => row)).toEqual(
      [a.id, b.id].sort().map((patientId) => ({ ...who, patientId, createdAt: at })),
    );
  });

  it.each([
    ['a patient of another clinic', async () => (await createPatient(t.db, t.south)).id],
    ['a patient that does not exist', async () => 'pat_nobody'],
  ])('refuses a list with %s as OUT_OF_SCOPE and logs none of it', async (_name, otherId) => {
    const mine = await createPatient(t.db, t.north);
    const who = access();
    expect(await refusal(recordPhiAccess(t.db, who, [mine.id, await otherId()]))).toEqual({
      code: 'OUT_OF_SCOPE',
      message: 'The patient is not enrolled in your clinic',
    });
    expect(await t.db.phiAccessLog.count({ where: { correlationId: who.correlationId } })).toBe(0);
  });

  it('logs nothing for an empty list', async () => {
    const who = access();
    await recordPhiAccess(t.db, who, []);
    expect(await t.db.phiAccessLog.count({ where: { correlationId: who.correlationId } })).toBe(0);
  });
});
