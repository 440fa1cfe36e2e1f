// Test data through the database the app uses: each test makes its own organization, clinic, users and
// patients with unique ids, so no test depends on another's data or order.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db';
import { hashPassword } from '@/lib/auth/password';
import { SCOPES, type Scope } from '@/lib/auth/scopes';

export const TEST_PASSWORD = 'correct-horse-battery-staple';
let cachedHash: Promise<string> | undefined;
const passwordHash = () => (cachedHash ??= hashPassword(TEST_PASSWORD));

export const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

export type TestTenant = { orgId: string; clinicId: string; clinicName: string };

/** `clinicId` lets a test bind the clinic in the app's environment (EMR_VENDORS groups, PARTNER_API_ACCOUNTS) before it exists. */
export async function createTenant(db: Db, name = 'Test', options: { clinicId?: string } = {}): Promise<TestTenant> {
  const orgId = uid('org');
  const clinicId = options.clinicId ?? uid('clinic');
  const clinicName = `${name} Clinic ${clinicId.slice(-4)}`;
  await db.organization.create({ data: { id: orgId, name: `${name} Org ${orgId.slice(-6)}` } });
  await db.clinic.create({
    data: { id: clinicId, orgId, name: clinicName, billingNpi: '1234567893', billingProviderName: `${name} Billing` },
  });
  return { orgId, clinicId, clinicName };
}

export type TestUser = { id: string; email: string; password: string; orgId: string; clinicId: string };

export async function createUser(
  db: Db,
  tenant: TestTenant,
  options: { scopes?: readonly Scope[]; email?: string } = {},
): Promise<TestUser> {
  const id = uid('user');
  const email = options.email ?? `${id}@example.test`;
  await db.user.create({
    data: {
      id,
      orgId: tenant.orgId,
      clinicId: tenant.clinicId,
      email,
      passwordHash: await passwordHash(),
      scopes: [...(options.scopes ?? SCOPES)],
    },
  });
  return { id, email, password: TEST_PASSWORD, orgId: tenant.orgId, clinicId: tenant.clinicId };
}

export async function createPatient(
  db: Db,
  tenant: TestTenant,
  options: Partial<{
    id: string;
    firstName: string;
    lastName: string;
    birthDate: string;
    memberId: string | null;
    payerId: string | null;
    payerName: string | null;
  }> = {},
) {
  const id = options.id ?? uid('pat');
  return db.patient.create({
    data: {
      id,
      clinicId: tenant.clinicId,
      firstName: options.firstName ?? 'Test',
      lastName: options.lastName ?? `Patient${id.slice(-4)}`,
      birthDate: options.birthDate ?? '1980-01-02',
      coverageMemberId: options.memberId === undefined ? `DEMO-ACTIVE-${id.slice(-6).toUpperCase()}` : options.memberId,
      coveragePayerId: options.payerId === undefined ? '60054' : options.payerId,
      coveragePayerName: options.payerName === undefined ? 'Aetna' : options.payerName,
    },
  });
}
