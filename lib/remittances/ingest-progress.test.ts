// ingestRemittance's onProgress against a real PostgreSQL database: the CLPs posted so far, counted across the
// interchange, told after each 835 is posted inside the interchange's one transaction (what the background posting
// writes for the screen; nothing is visible to others before the last 835 commits with the rest), and never for an
// interchange refused before anything posts.
import { describe, expect, it } from 'vitest';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import { claimPayment, createClaim, interchangeOf, remittanceOf } from '@/test/support/remittances';
import { ingestRemittance } from './ingest-remittance';

const handle = setUpTwoClinicDb();
const clock = () => new Date('2026-11-23T12:00:00Z');
const lines = [
  { procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '45', 5_000]] as [string, string, number][] },
];

/** Each call, with how many of the clinic's 835s another connection could already read at that moment. */
async function ingestWatching(clinicId: string, x12: string) {
  const { db } = handle;
  const calls: { claimsPosted: number; claimsTotal: number; committed: number }[] = [];
  await ingestRemittance(
    { db, clock },
    {
      clinicId,
      x12,
      source: 'webhook',
      correlationId: 'test',
      onProgress: async (p) => {
        calls.push({ ...p, committed: await db.remittance.count({ where: { clinicId } }) });
      },
    },
  );
  return calls;
}

describe('ingestRemittance onProgress', () => {
  it('counts the CLPs posted across the interchange, after each 835, committing them together; a copy counts again', async () => {
    const { north, db } = handle;
    const [a, b, c] = [await createClaim(db, north), await createClaim(db, north), await createClaim(db, north)];
    const x12 = interchangeOf([
      remittanceOf([claimPayment(a.id, '1', lines), claimPayment(b.id, '1', lines)]),
      remittanceOf([claimPayment(c.id, '1', lines)]),
    ]);
    expect(await ingestWatching(north.clinicId, x12)).toEqual([
      { claimsPosted: 2, claimsTotal: 3, committed: 0 },
      { claimsPosted: 3, claimsTotal: 3, committed: 0 },
    ]);
    expect(await db.remittance.count({ where: { clinicId: north.clinicId } })).toBe(2);
    // A retried job re-reads the whole interchange: copies post nothing but count, so it still ends at the total.
    expect(await ingestWatching(north.clinicId, x12)).toEqual([
      { claimsPosted: 2, claimsTotal: 3, committed: 2 },
      { claimsPosted: 3, claimsTotal: 3, committed: 2 },
    ]);
  });

  it('is never told anything for an interchange refused before posting', async () => {
    const { south } = handle;
    const x12 = interchangeOf([remittanceOf([claimPayment('clm_nobody_has', '1', lines)])]);
    const calls: unknown[] = [];
    await expect(
      ingestRemittance(
        { db: handle.db, clock },
        {
          clinicId: south.clinicId,
          x12,
          source: 'webhook',
          correlationId: 'test',
          onProgress: async (p) => void calls.push(p),
        },
      ),
    ).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    expect(calls).toEqual([]);
  });
});
