// GET /api/home over real HTTP and PostgreSQL: each section only for the scopes that open its screens, and counts
// that match what the linked lists hold (claims by state, today's appointments needing attention, locked users).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicDayBounds, clinicToday } from '@/lib/time/clinic-day';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createPatient, createTenant, createUser, type TestTenant } from '../support/factories';
import { createClaim } from '../support/remittances';

describe('GET /api/home', () => {
  let app: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    app = await startApp();
    tenant = await createTenant(app.db, 'Home');
    for (const status of ['draft', 'submitted', 'submitted', 'denied']) await createClaim(app.db, tenant, { status });
    // Two appointments today: one whose latest check is inactive, one never checked.
    const zone = 'America/New_York';
    const { from } = clinicDayBounds(clinicToday(new Date(), zone), zone);
    for (const [i, status] of (['inactive', null] as const).entries()) {
      const patient = await createPatient(app.db, tenant);
      await app.db.appointment.create({
        data: {
          id: `appt_${patient.id}`,
          clinicId: tenant.clinicId,
          patientId: patient.id,
          start: new Date(from.getTime() + (9 + i) * 3600_000),
        },
      });
      if (status)
        await app.db.eligibilityCheck.create({
          data: {
            clinicId: tenant.clinicId,
            patientId: patient.id,
            userId: 'x',
            cacheKey: 'k',
            payerId: '60054',
            serviceType: '30',
            dateOfService: '2026-01-01',
            status,
            eligible: false,
            mode: 'sandbox',
            cacheable: true,
            result: { status, network: 'UNKNOWN', priorAuthRequired: false, priorAuthCodes: [] },
            correlationId: 'setup',
          },
        });
    }
    await createUser(app.db, tenant, { scopes: ['claims:read'] }).then((u) =>
      app.db.user.update({ where: { id: u.id }, data: { lockedUntil: new Date(Date.now() + 3600_000) } }),
    );
  });
  afterAll(async () => {
    await app?.stop();
  });

  const homeAs = async (options: Parameters<typeof createUser>[2]) => {
    const user = await createUser(app.db, tenant, options);
    const client = await signIn(app, user.email, user.password);
    const res = await client.get('/api/home');
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('gives the front desk today’s schedule and the claims it may read, nothing of money or admin', async () => {
    const body = await homeAs({
      scopes: ['eligibility:read', 'patients:read', 'appointments:read', 'claims:read'],
    });
    expect(Object.keys(body).sort()).toEqual(['claims', 'frontDesk']);
    expect(body.frontDesk).toMatchObject({
      appointments: 2,
      needsAttention: 1,
      inactive: 1,
      unknown: 0,
      priorAuth: 0,
      outOfNetwork: 0,
      notChecked: 1,
      preVerificationChanges: 0,
    });
    expect(body.claims.byStatus).toEqual(
      expect.arrayContaining([
        { status: 'draft', count: 1 },
        { status: 'submitted', count: 2 },
        { status: 'denied', count: 1 },
      ]),
    );
    expect(body.claims.byStatus).toHaveLength(3);
    expect(body.claims.denialsByNextAction).toEqual([{ nextAction: expect.any(String), count: 1 }]);
  });

  it('gives billing claims and money, no schedule and no admin', async () => {
    const body = await homeAs({ scopes: ['claims:read', 'claims:write', 'svcpay:read', 'svcpay:write'] });
    expect(Object.keys(body).sort()).toEqual(['claims', 'money']);
    expect(body.money).toEqual({
      erasWaitingForDeposit: 0,
      unpostedClaimPayments: 0,
      unmatchedDeposits: 0,
      payoutsWaiting: 0,
    });
  });

  it('gives an admin every section, with the locked user counted', async () => {
    const body = await homeAs({});
    expect(Object.keys(body).sort()).toEqual(['admin', 'claims', 'frontDesk', 'integrations', 'money']);
    expect(body.admin).toEqual({ lockedUsers: 1, failedJobs: 0 });
    expect(body.integrations).toEqual({ needingAttention: 0 });
  });

  it('needs a session', async () => {
    expect((await new HttpClient(app.url).get('/api/home')).status).toBe(401);
  });
});
