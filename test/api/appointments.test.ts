import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicToday } from '@/lib/time/clinic-day';
import { startApp, type TestApp } from '../support/app';
import { signIn } from '../support/http';
import { createPatient, createTenant, createUser } from '../support/factories';

describe('GET /api/appointments', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("lists today's demo appointments of the caller's clinic only, in time order", async () => {
    const client = await signIn(app, 'frontdesk@northside.test');
    // The clinic's today, in New York: after 19:00 there, UTC is already on the next day.
    const today = clinicToday(new Date(), 'America/New_York');
    const res = await client.get(`/api/appointments?date=${today}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ date: today, timeZone: 'America/New_York' });
    expect(res.body.appointments).toHaveLength(10);
    expect(res.body.appointments.map((a: { patientId: string }) => a.patientId).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `pat_n_${String(i + 1).padStart(3, '0')}`),
    );
    const starts = res.body.appointments.map((a: { start: string }) => a.start);
    expect([...starts].sort()).toEqual(starts);
    expect(res.body.appointments[0]).toMatchObject({
      payerId: '60054',
      payerName: 'Aetna',
      memberId: 'DEMO-ACTIVE-N001',
    });
  });

  it("answers the clinic's today without a date, each clinic in its own time zone, at clinic-local times", async () => {
    for (const [email, timeZone] of [
      ['frontdesk@northside.test', 'America/New_York'],
      ['admin@southside.test', 'America/Los_Angeles'],
    ] as const) {
      const res = await (await signIn(app, email)).get('/api/appointments');
      expect(res.status).toBe(200);
      expect(res.body.date).toBe(clinicToday(new Date(), timeZone));
      expect(res.body.timeZone).toBe(timeZone);
      // The demo day runs 08:30 to 13:00 on the clinic's wall clock.
      const times = res.body.appointments.map((a: { start: string }) =>
        new Date(a.start).toLocaleTimeString('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }),
      );
      expect(times[0]).toBe('08:30');
      expect(times.at(-1)).toBe('13:00');
    }
  });

  it('refuses a malformed date with VALIDATION_FAILED and the field path', async () => {
    const client = await signIn(app, 'frontdesk@northside.test');
    const res = await client.get('/api/appointments?date=22-11-2026');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request query is not valid',
      correlationId: expect.any(String),
      issues: [{ path: 'query.date', message: 'date must be YYYY-MM-DD' }],
    });
  });

  it('refuses a user without appointments:read with SCOPE_MISSING', async () => {
    const tenant = await createTenant(app.db);
    const user = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    const client = await signIn(app, user.email, user.password);
    const res = await client.get('/api/appointments?date=2026-01-01');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'SCOPE_MISSING',
      message: 'This action needs the appointments:read scope',
      correlationId: expect.any(String),
    });
  });

  it("never shows another clinic's appointments", async () => {
    const tenant = await createTenant(app.db);
    const patient = await createPatient(app.db, tenant);
    await app.db.appointment.create({
      data: {
        id: `appt_${patient.id}`,
        clinicId: tenant.clinicId,
        patientId: patient.id,
        start: new Date('2026-03-03T10:00:00Z'),
      },
    });
    const other = await signIn(app, 'admin@southside.test');
    const res = await other.get('/api/appointments?date=2026-03-03');
    expect(res.status).toBe(200);
    expect(res.body.appointments).toEqual([]);
  });
});
