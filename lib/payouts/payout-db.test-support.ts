// What the payout module tests build on a real database: a clinic's actor, payout account and SIGNED instructions,
// and deps with a pinned clock. Rows are written directly where the module under test only reads them.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Config } from '@/lib/config';
import type { Db } from '@/lib/db';
import type { Actor } from '@/lib/http/route';
import type { TestTenant } from '@/test/support/factories';
import { setPayoutAccount } from './payout-account';

const sealKey = randomBytes(32);
export const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

/** Deps whose clock reads `at` (an ISO instant; 15:00Z is 10:00 in New York in winter). */
export const payoutDeps = (db: Db, at: string) => ({
  db,
  config: { sealKey, mode: 'sandbox' } as Config,
  clock: () => new Date(at),
});

export const actorOf = (tenant: TestTenant): Actor => ({
  clinicId: tenant.clinicId,
  orgId: tenant.orgId,
  userId: 'usr_payout_test',
  correlationId: randomUUID(),
  clinicTimeZone: 'America/New_York',
});

/** Sets the clinic's payout account; `verified` marks it proven as if its prenote had been confirmed. */
export async function payoutAccount(db: Db, tenant: TestTenant, { verified }: { verified: boolean }) {
  await setPayoutAccount(payoutDeps(db, new Date().toISOString()), actorOf(tenant), {
    routingNumber: '011000015',
    accountNumber: '000123456789',
    accountType: 'checking',
    holderName: 'Payout Clinic',
  });
  if (verified)
    await db.payoutAccount.update({ where: { clinicId: tenant.clinicId }, data: { verifiedAt: new Date() } });
}

/** A SIGNED instruction paying `residualCents` to the clinic out of a fresh pool of 1,000,000 cents. */
export async function signedInstruction(db: Db, tenant: TestTenant, residualCents = 5_000n) {
  const poolId = uid('pool');
  await db.settlementPool.create({
    data: { id: poolId, clinicId: tenant.clinicId, availableCents: 1_000_000n, status: 'active' },
  });
  const id = uid('ins');
  const [feeCents, reserveCents] = [250n, 1_000n];
  await db.settlementInstruction.create({
    data: {
      id,
      clinicId: tenant.clinicId,
      poolId,
      status: 'SIGNED',
      advanceAmountCents: residualCents + feeCents + reserveCents,
      feeBps: 250,
      reserveBps: 1000,
      poolCents: 1_000_000n,
      feeCents,
      reserveCents,
      residualCents,
      createdBy: 'test',
      expiresAt: new Date('2099-01-01T00:00:00Z'),
      correlationId: 'test',
    },
  });
  return { id, poolId };
}

/** The File ID Modifier of a NACHA file: position 34 of its header. */
export const fileIdModifierOf = (fileText: string) => fileText.slice(33, 34);
