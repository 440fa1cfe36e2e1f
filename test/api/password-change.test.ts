// POST /api/auth/password over real HTTP: any signed-in user changes their own password with the current one;
// every other session ends, the one that changed it stays signed in (its token re-issued), and the change is
// audited. A wrong current password counts against the factor limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { attemptSignIn, HttpClient, signIn } from '../support/http';
import { createTenant, createUser, type TestTenant } from '../support/factories';

const anyString = expect.any(String);
const NEW_PASSWORD = 'a brand new pass phrase';

describe('POST /api/auth/password', () => {
  let app: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    app = await startApp();
    tenant = await createTenant(app.db, 'Password');
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('refuses a caller without a session', async () => {
    const res = await new HttpClient(app.url).post('/api/auth/password', {
      currentPassword: 'x',
      newPassword: NEW_PASSWORD,
    });
    expect(res.status).toBe(401);
  });

  it('changes the password: this session stays, other sessions and the old password stop working, audited', async () => {
    const user = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    const browser = await signIn(app, user.email, user.password);
    const other = await signIn(app, user.email, user.password);
    const oldToken = browser.sessionToken;

    const res = await browser.post('/api/auth/password', { currentPassword: user.password, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, otherSessionsEnded: true });
    expect(browser.sessionToken).toBeDefined();
    expect(browser.sessionToken).not.toBe(oldToken);

    expect((await browser.get('/api/auth/step-up')).status).toBe(200);
    expect((await other.get('/api/auth/step-up')).status).toBe(401);
    const copied = await new HttpClient(app.url).get('/api/auth/step-up', {
      headers: { authorization: `Bearer ${oldToken}` },
    });
    expect(copied.status).toBe(401);

    expect((await attemptSignIn(app, user.email, user.password)).response.status).toBe(401);
    expect((await attemptSignIn(app, user.email, NEW_PASSWORD)).response.status).toBe(200);
    const audit = await app.db.auditLog.findFirstOrThrow({
      where: { correlationId: res.headers.get('x-correlation-id')! },
    });
    expect(audit).toMatchObject({ action: 'password.change', outcome: 'success', userId: user.id });
    expect(JSON.stringify(audit)).not.toContain(NEW_PASSWORD);
  });

  it.each([
    [{ currentPassword: 'x', newPassword: 'short' }, 'body.newPassword', 'Use at least 12 characters'],
    [{ currentPassword: '', newPassword: NEW_PASSWORD }, 'body.currentPassword', 'Enter your current password'],
    [
      { currentPassword: NEW_PASSWORD, newPassword: NEW_PASSWORD },
      'body.newPassword',
      'Choose a password different from the current one',
    ],
  ])('refuses %j with a sentence next to %s', async (body, path, message) => {
    const user = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    const client = await signIn(app, user.email, user.password);
    const res = await client.post('/api/auth/password', body);
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path, message }]);
  });

  it('refuses a wrong current password next to its field, changes nothing, and stops guessing after 5 failures', async () => {
    const user = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    const client = await signIn(app, user.email, user.password);
    const before = await app.db.user.findUniqueOrThrow({ where: { id: user.id } });
    for (let i = 0; i < 5; i++) {
      const res = await client.post('/api/auth/password', { currentPassword: `wrong ${i}`, newPassword: NEW_PASSWORD });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'The current password is not correct',
        correlationId: anyString,
        issues: [{ path: 'body.currentPassword', message: 'The current password is not correct' }],
      });
    }
    const limited = await client.post('/api/auth/password', {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
    });
    expect(limited.status).toBe(429);
    const after = await app.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.sessionVersion).toBe(before.sessionVersion);
  });
});
