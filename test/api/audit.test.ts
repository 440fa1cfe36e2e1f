// GET /api/audit over real HTTP and PostgreSQL: a clinic admin reads their clinic's audit trail and PHI reads
// (marked phi-read), newest first, at most 100, filtered by user, action and the clinic's day; never another
// clinic's rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { stepUpHeader } from '../support/step-up-claim';
import { createPatient, createTenant, createUser, type TestTenant, type TestUser } from '../support/factories';

const anyString = expect.any(String);

describe('GET /api/audit', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let admin: TestUser;
  let adminClient: HttpClient;
  beforeAll(async () => {
    app = await startApp();
    tenant = await createTenant(app.db, 'Audit');
    await app.db.clinic.update({ where: { id: tenant.clinicId }, data: { timeZone: 'America/Los_Angeles' } });
    admin = await createUser(app.db, tenant);
    adminClient = await signIn(app, admin.email, admin.password);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('refuses callers without a session (401) and without users:admin (403)', async () => {
    const anonymous = await new HttpClient(app.url).get('/api/audit');
    expect(anonymous.status).toBe(401);
    const frontdesk = await signIn(app, 'frontdesk@northside.test');
    const res = await frontdesk.get('/api/audit');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'SCOPE_MISSING',
      message: 'This action needs the users:admin scope',
      correlationId: anyString,
    });
  });

  it('shows an admin action, sign-ins and PHI reads of the clinic, newest first, with e-mails', async () => {
    const user = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    await app.db.user.update({ where: { id: user.id }, data: { lockedUntil: new Date(Date.now() + 900_000) } });
    const unlock = await adminClient.post(`/api/users/${user.id}/unlock`, undefined, {
      headers: await stepUpHeader(app, admin.email),
    });
    expect(unlock.status).toBe(200);
    const patient = await createPatient(app.db, tenant, { memberId: 'DEMO-ACTIVE-A1' });
    await app.db.phiAccessLog.create({
      data: {
        orgId: tenant.orgId,
        clinicId: tenant.clinicId,
        userId: user.id,
        patientId: patient.id,
        purpose: 'eligibility.verify',
        correlationId: 'phi-read-audit-0001',
      },
    });

    const res = await adminClient.get('/api/audit');
    expect(res.status).toBe(200);
    const { entries, actions } = res.body;
    expect(entries[0]).toEqual({
      id: anyString,
      kind: 'phi-read',
      at: anyString,
      action: 'phi.read',
      outcome: 'success',
      userId: user.id,
      userEmail: user.email,
      correlationId: 'phi-read-audit-0001',
      detail: { patientId: patient.id, purpose: 'eligibility.verify' },
    });
    expect(entries).toContainEqual({
      id: anyString,
      kind: 'audit',
      at: anyString,
      action: 'users.unlock',
      outcome: 'success',
      userId: admin.id,
      userEmail: admin.email,
      correlationId: unlock.headers.get('x-correlation-id'),
      detail: { targetUserId: user.id, wasLocked: true },
    });
    expect(
      entries.some((e: { action: string; userId: string }) => e.action === 'sign-in' && e.userId === admin.id),
    ).toBe(true);
    const times = entries.map((e: { at: string }) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(actions).toEqual(expect.arrayContaining(['phi.read', 'sign-in', 'users.unlock']));
  });

  it('filters by action, by user and by the clinic day (its own time zone)', async () => {
    const byAction = await adminClient.get('/api/audit?action=users.unlock');
    expect(byAction.body.entries.length).toBeGreaterThan(0);
    expect(byAction.body.entries.every((e: { action: string }) => e.action === 'users.unlock')).toBe(true);

    const phiOnly = await adminClient.get('/api/audit?action=phi.read');
    expect(phiOnly.body.entries.every((e: { kind: string }) => e.kind === 'phi-read')).toBe(true);

    const byUser = await adminClient.get(`/api/audit?userId=${admin.id}`);
    expect(byUser.body.entries.length).toBeGreaterThan(0);
    expect(byUser.body.entries.every((e: { userId: string }) => e.userId === admin.id)).toBe(true);

    // 06:30 UTC on 2026-03-10 is still 23:30 on 2026-03-09 in Los Angeles (PDT, UTC-7).
    await app.db.auditLog.create({
      data: {
        clinicId: tenant.clinicId,
        orgId: tenant.orgId,
        userId: admin.id,
        action: 'sign-in',
        outcome: 'success',
        correlationId: 'audit-day-0001',
        createdAt: new Date('2026-03-10T06:30:00Z'),
      },
    });
    const day9 = await adminClient.get('/api/audit?day=2026-03-09');
    expect(day9.body.entries.map((e: { correlationId: string }) => e.correlationId)).toEqual(['audit-day-0001']);
    const day10 = await adminClient.get('/api/audit?day=2026-03-10');
    expect(day10.body.entries).toEqual([]);

    const bad = await adminClient.get('/api/audit?day=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual([{ path: 'query.day', message: 'day must be YYYY-MM-DD' }]);
  });

  it('caps the list at 100', async () => {
    await app.db.auditLog.createMany({
      data: Array.from({ length: 120 }, (_, i) => ({
        clinicId: tenant.clinicId,
        userId: admin.id,
        action: 'step-up',
        outcome: 'failure',
        correlationId: `audit-cap-${i}`,
      })),
    });
    const res = await adminClient.get('/api/audit');
    expect(res.body.entries).toHaveLength(100);
  });

  it("never shows another clinic's rows: Southside's admin sees none of Northside's", async () => {
    const north = await signIn(app, 'admin@northside.test');
    await north.get('/api/users');
    const northUsers = await app.db.user.findMany({ where: { clinicId: 'clinic_north' }, select: { id: true } });
    const south = await signIn(app, 'admin@southside.test');
    const res = await south.get('/api/audit');
    expect(res.status).toBe(200);
    const northIds = new Set(northUsers.map((u) => u.id));
    expect(res.body.entries.filter((e: { userId: string }) => northIds.has(e.userId))).toEqual([]);
    const mine = await adminClient.get('/api/audit');
    expect(mine.body.entries.filter((e: { userId: string }) => northIds.has(e.userId))).toEqual([]);
    const filtered = await south.get(`/api/audit?userId=${[...northIds][0]}`);
    expect(filtered.body.entries).toEqual([]);
  });
});
