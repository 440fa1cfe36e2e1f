// The sandbox demo tenant of DECISIONS.md: "Demo Health" with Northside and Southside clinics, their users,
// patients (member ids choose the sandbox payer's scenario), today's appointments, a bill and a pool each.
// Seeded once; each clinic's appointments of its own calendar day are added on every start and kept coming by the
// sandbox's demo-day schedule (demo-day-schedule.ts), so the roster screen always has a morning to check.
// Production never seeds it.
import type { Db } from '../db';
import { ConfigError, type ServiceMode } from '../config';
import { hashPassword } from '../auth/password';
import { seal } from '../crypto/seal';
import { mfaSealContext } from '../auth/second-factor';
import { SCOPES, type Scope } from '../auth/scopes';
import { clinicInstant, clinicToday } from '../time/clinic-day';

export const DEMO_PASSWORD = 'demo-password-1';
export const DEMO_ORG_ID = 'org_demo';
export const DEMO_MFA_SECRET = 'JBSWY3DPEHPK3PXP';

const CLINICS = [
  {
    id: 'clinic_north',
    name: 'Northside Clinic',
    prefix: 'n',
    tag: 'N',
    npi: '1234567893',
    provider: 'Northside Clinic Billing',
    timeZone: 'America/New_York',
    taxId: '123456789',
    address: { line1: '100 North Main Street', city: 'Albany', state: 'NY', postalCode: '122071234' },
    phone: '5185550100',
    city: { city: 'Albany', state: 'NY', postalCode: '12207' },
  },
  {
    id: 'clinic_south',
    name: 'Southside Clinic',
    prefix: 's',
    tag: 'S',
    npi: '1987654328',
    provider: 'Southside Clinic Billing',
    timeZone: 'America/Los_Angeles',
    taxId: '987654321',
    address: { line1: '200 South Harbor Drive', city: 'San Diego', state: 'CA', postalCode: '921011234' },
    phone: '6195550100',
    city: { city: 'San Diego', state: 'CA', postalCode: '92101' },
  },
] as const;

const USERS: { email: string; clinicId: string; scopes: readonly Scope[]; mfa?: boolean }[] = [
  {
    email: 'frontdesk@northside.test',
    clinicId: 'clinic_north',
    scopes: ['eligibility:read', 'patients:read', 'appointments:read', 'claims:read'],
  },
  { email: 'admin@northside.test', clinicId: 'clinic_north', scopes: SCOPES },
  { email: 'admin@southside.test', clinicId: 'clinic_south', scopes: SCOPES },
  {
    email: 'billing@northside.test',
    clinicId: 'clinic_north',
    scopes: ['claims:read', 'claims:write', 'svcpay:read', 'svcpay:write'],
  },
  { email: 'mfa@northside.test', clinicId: 'clinic_north', scopes: SCOPES, mfa: true },
];

// Member id prefixes select the sandbox payer's answer (ELIGIBILITY.md); _010 is self-pay.
const SCENARIOS = [
  'DEMO-ACTIVE',
  'DEMO-INACTIVE',
  'DEMO-PRIORAUTH',
  'DEMO-OON',
  'DEMO-NOTFOUND',
  'DEMO-DOWN',
  'DEMO-ACTIVE',
  'DEMO-ACTIVE',
  'DEMO-ACTIVE',
];
const FIRST_NAMES = ['Avery', 'Blake', 'Casey', 'Devon', 'Emery', 'Finley', 'Gray', 'Harper', 'Indy', 'Jules'];

export const demoPatientId = (prefix: string, n: number) => `pat_${prefix}_${String(n).padStart(3, '0')}`;

/** Creates the demo tenant if absent and today's appointments if missing. Refuses in production. */
export async function ensureDemoTenant(
  deps: { db: Db; now: Date; sealKey?: Buffer },
  mode: ServiceMode,
): Promise<{ created: boolean }> {
  if (mode !== 'sandbox') throw new ConfigError('The demo tenant exists only in sandbox mode');
  const { db } = deps;
  const exists = await db.organization.findUnique({ where: { id: DEMO_ORG_ID } });
  const created = !exists && (await createTenant(deps));
  await ensureDemoAppointments(db, deps.now);
  return { created };
}

/**
 * Seeds the tenant in one transaction that starts by claiming the organization row with ON CONFLICT DO NOTHING:
 * of several instances starting together one inserts it and seeds; the others wait on that row, then find it
 * taken and seed nothing (false), instead of failing on a unique violation.
 */
async function createTenant({ db, sealKey }: { db: Db; sealKey?: Buffer }): Promise<boolean> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.$transaction(async (tx) => {
    const claimed =
      await tx.$executeRaw`INSERT INTO "Organization" ("id", "name") VALUES (${DEMO_ORG_ID}, 'Demo Health') ON CONFLICT ("id") DO NOTHING`;
    if (claimed === 0) return false;
    for (const c of CLINICS) {
      await tx.clinic.create({
        data: {
          id: c.id,
          orgId: DEMO_ORG_ID,
          name: c.name,
          billingNpi: c.npi,
          billingProviderName: c.provider,
          // 261QP2300X: primary care clinic/center.
          billingTaxonomy: '261QP2300X',
          billingTaxId: c.taxId,
          billingAddress: c.address,
          phone: c.phone,
          timeZone: c.timeZone,
        },
      });
      for (let n = 1; n <= 10; n++) {
        const id = demoPatientId(c.prefix, n);
        const scenario = SCENARIOS[n - 1];
        await tx.patient.create({
          data: {
            id,
            clinicId: c.id,
            firstName: FIRST_NAMES[n - 1]!,
            lastName: `${c.name.split(' ')[0]}${String(n).padStart(3, '0')}`,
            birthDate: `19${70 + n}-0${(n % 9) + 1}-1${n % 10}`,
            gender: n % 2 ? 'female' : 'male',
            address: { line: [`${n * 10} Elm Street`], ...c.city },
            coverageMemberId: scenario ? `${scenario}-${c.tag}${String(n).padStart(3, '0')}` : null,
            coveragePayerId: scenario ? '60054' : null,
            coveragePayerName: scenario ? 'Aetna' : null,
          },
        });
      }
      await tx.patientBill.create({
        data: {
          id: `bill_${c.prefix}_001`,
          clinicId: c.id,
          patientId: demoPatientId(c.prefix, 1),
          amountCents: 12_500,
        },
      });
      await tx.settlementPool.create({
        data: { id: `pool_${c.prefix}_001`, clinicId: c.id, availableCents: 1_000_000n, status: 'active' },
      });
    }
    for (const u of USERS) {
      const id = `user_${u.email.split('@')[0]}_${u.clinicId.split('_')[1]}`;
      // MFA needs SEAL_KEY to store the secret; without it the MFA demo user is left out rather than stored in clear.
      if (u.mfa && !sealKey) continue;
      await tx.user.create({
        data: {
          id,
          orgId: DEMO_ORG_ID,
          clinicId: u.clinicId,
          email: u.email,
          passwordHash,
          scopes: [...u.scopes],
          mfaEnabled: !!u.mfa,
          mfaSecretSealed: u.mfa && sealKey ? seal(DEMO_MFA_SECRET, sealKey, mfaSealContext(id)) : null,
        },
      });
    }
    return true;
  });
}

/**
 * How far ahead the demo's days are kept: a clinic's next morning is on its calendar this long before its midnight,
 * so a demo (or a test) that runs across the clinic's midnight finds the new day's appointments already there.
 */
const DAY_LOOKAHEAD_MS = 15 * 60 * 1000;

/**
 * Each clinic's appointments of its own today (its time zone's calendar day, and its next one within
 * DAY_LOOKAHEAD_MS of midnight), from 08:30 to 13:00 on its wall clock, so the roster has a morning to check
 * whatever time of day the demo runs. Insert-if-absent (ON CONFLICT DO NOTHING): instances restarting together on a
 * new day all succeed. Only clinics of the demo tenant that exist are given appointments. Answers how many were
 * added.
 */
export async function ensureDemoAppointments(db: Db, now: Date): Promise<number> {
  const present = await db.clinic.findMany({
    where: { orgId: DEMO_ORG_ID, id: { in: CLINICS.map((c) => c.id) } },
    select: { id: true },
  });
  const ahead = new Date(now.getTime() + DAY_LOOKAHEAD_MS);
  const data = CLINICS.filter((c) => present.some((p) => p.id === c.id)).flatMap((c) =>
    [...new Set([clinicToday(now, c.timeZone), clinicToday(ahead, c.timeZone)])].flatMap((day) =>
      Array.from({ length: 10 }, (_, i) => {
        const n = i + 1;
        const time = `${String(8 + Math.floor(n / 2)).padStart(2, '0')}:${n % 2 ? '30' : '00'}`;
        return {
          id: `appt_${c.prefix}_${String(n).padStart(3, '0')}_${day.replaceAll('-', '')}`,
          clinicId: c.id,
          patientId: demoPatientId(c.prefix, n),
          start: clinicInstant(day, time, c.timeZone),
          providerNpi: c.npi,
          providerName: c.provider,
          reason: 'Office visit',
        };
      }),
    ),
  );
  if (data.length === 0) return 0;
  return (await db.appointment.createMany({ data, skipDuplicates: true })).count;
}
