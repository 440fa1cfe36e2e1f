// Sign-in through next-auth's real endpoints: the session cookie, failures in our error shape, lockout at
// exactly five failures, inline MFA with replay refusal and single-use backup codes, and the audit trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal } from '@/lib/crypto/seal';
import { hashBackupCode } from '@/lib/auth/backup-codes';
import { mfaSealContext } from '@/lib/auth/second-factor';
import { clinicToday } from '@/lib/time/clinic-day';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { attemptSignIn, HttpClient, signIn } from '../support/http';
import { createTenant, createUser } from '../support/factories';
import { totpCode } from '../../e2e/totp-code';

describe('sign-in', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('sets an httpOnly, SameSite=Lax session cookie for 8 hours and shows the session without secrets', async () => {
    const { client, response } = await attemptSignIn(app, 'admin@northside.test', 'demo-password-1');
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('next-auth.session-token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const expires = new Date(/Expires=([^;]+)/i.exec(cookie)![1]!).getTime();
    expect(Math.abs(expires - Date.now() - 8 * 3600 * 1000)).toBeLessThan(60_000);
    const session = await client.get('/api/auth/session');
    expect(session.body.user).toEqual({
      id: 'user_admin_north',
      email: 'admin@northside.test',
      orgId: 'org_demo',
      clinicId: 'clinic_north',
      clinicName: 'Northside Clinic',
      scopes: [
        'svcpay:read',
        'svcpay:write',
        'claims:read',
        'claims:write',
        'eligibility:read',
        'integrations:read',
        'patients:read',
        'appointments:read',
        'users:admin',
        'webhooks:admin',
      ],
    });
    expect(session.text).not.toMatch(/passwordHash|mfaSecret|scrypt/);
  });

  it('answers a wrong password and an unknown e-mail alike with 401 INVALID_CREDENTIALS', async () => {
    for (const [email, password] of [
      ['frontdesk@northside.test', 'wrong-password'],
      ['nobody@northside.test', 'demo-password-1'],
    ]) {
      const { client, response } = await attemptSignIn(app, email!, password!);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        code: 'INVALID_CREDENTIALS',
        message: 'The e-mail, password or code is not correct',
        correlationId: expect.any(String),
        url: expect.stringContaining('/api/auth/error'),
      });
      expect(client.sessionToken).toBeUndefined();
    }
  });

  it("treats a missing CSRF token as a failure (401), never as next-auth's 200", async () => {
    const client = new HttpClient(app.url);
    const res = await client.request('POST', '/api/auth/callback/credentials', {
      form: { email: 'admin@northside.test', password: 'demo-password-1', json: 'true' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHENTICATED', correlationId: expect.any(String) });
    expect(client.sessionToken).toBeUndefined();
  });

  it('locks the account on the 5th consecutive failure with 423 and Retry-After, even for the right password', async () => {
    const tenant = await createTenant(app.db);
    const user = await createUser(app.db, tenant);
    for (let i = 1; i <= 4; i++) expect((await attemptSignIn(app, user.email, 'wrong')).response.status).toBe(401);
    const fifth = await attemptSignIn(app, user.email, 'wrong');
    expect(fifth.response.status).toBe(423);
    expect(fifth.response.body).toMatchObject({ code: 'ACCOUNT_LOCKED', correlationId: expect.any(String) });
    const retry = Number(fifth.response.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(890);
    expect(retry).toBeLessThanOrEqual(900);
    const right = await attemptSignIn(app, user.email, user.password);
    expect(right.response.status).toBe(423);
    expect(right.client.sessionToken).toBeUndefined();
    const audit = await app.db.auditLog.findMany({
      where: { userId: user.id, action: 'sign-in' },
      orderBy: { createdAt: 'asc' },
    });
    expect(audit.map((a) => a.outcome)).toEqual(['failure', 'failure', 'failure', 'failure', 'failure', 'refused']);
  });

  it('resets the failure count on success, so four failures then a success never lock', async () => {
    const tenant = await createTenant(app.db);
    const user = await createUser(app.db, tenant);
    for (let i = 0; i < 4; i++) await attemptSignIn(app, user.email, 'wrong');
    await signIn(app, user.email, user.password);
    for (let i = 0; i < 4; i++) expect((await attemptSignIn(app, user.email, 'wrong')).response.status).toBe(401);
    const row = await app.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.lockedUntil).toBeNull();
    expect(row.failedSignIns).toBe(4);
  });

  describe('with MFA on', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    async function mfaUser() {
      const tenant = await createTenant(app.db);
      const user = await createUser(app.db, tenant);
      const codes = ['abcd-efgh-jkmn', 'pqrs-tuvw-xyz2'];
      await app.db.user.update({
        where: { id: user.id },
        data: {
          mfaEnabled: true,
          mfaSecretSealed: seal(secret, Buffer.from(TEST_SECRETS.SEAL_KEY, 'base64'), mfaSealContext(user.id)),
          backupCodes: { create: codes.map((c) => ({ codeHash: hashBackupCode(c) })) },
        },
      });
      return { user, codes };
    }

    it('asks for the code with 401 MFA_REQUIRED, then signs in with a valid TOTP', async () => {
      const { user } = await mfaUser();
      const missing = await attemptSignIn(app, user.email, user.password);
      expect(missing.response.status).toBe(401);
      expect(missing.response.body).toMatchObject({
        code: 'MFA_REQUIRED',
        message: 'Enter the code from your authenticator app or a backup code',
      });
      const ok = await attemptSignIn(app, user.email, user.password, totpCode(secret));
      expect(ok.response.status).toBe(200);
      expect(ok.client.sessionToken).toBeDefined();
    });

    it('refuses the same TOTP code a second time (replay) and a wrong one', async () => {
      const { user } = await mfaUser();
      const code = totpCode(secret);
      expect((await attemptSignIn(app, user.email, user.password, code)).response.status).toBe(200);
      const replay = await attemptSignIn(app, user.email, user.password, code);
      expect(replay.response.status).toBe(401);
      expect(replay.response.body.code).toBe('INVALID_CREDENTIALS');
      const wrong = await attemptSignIn(app, user.email, user.password, code === '000000' ? '111111' : '000000');
      expect(wrong.response.status).toBe(401);
    });

    it('accepts a backup code exactly once', async () => {
      const { user, codes } = await mfaUser();
      expect((await attemptSignIn(app, user.email, user.password, codes[0])).response.status).toBe(200);
      expect((await attemptSignIn(app, user.email, user.password, codes[0])).response.status).toBe(401);
      expect((await attemptSignIn(app, user.email, user.password, codes[1]!.toUpperCase())).response.status).toBe(200);
      const used = await app.db.backupCode.count({ where: { userId: user.id, usedAt: { not: null } } });
      expect(used).toBe(2);
    });
  });

  it('signs out: the cookie is cleared', async () => {
    const client = await signIn(app, 'frontdesk@northside.test');
    const csrf = await client.get('/api/auth/csrf');
    await client.request('POST', '/api/auth/signout', { form: { csrfToken: csrf.body.csrfToken, json: 'true' } });
    expect(client.sessionToken).toBeUndefined();
    expect((await client.get('/api/appointments?date=2026-01-01')).status).toBe(401);
  });
});

describe('sign-in fails closed', () => {
  it('answers 503 with no session when AUTH_SECRET is unset, and the API refuses too', async () => {
    const app = await startApp({ env: { AUTH_SECRET: undefined } });
    try {
      const client = new HttpClient(app.url);
      const csrf = await client.get('/api/auth/csrf');
      expect(csrf.status).toBe(503);
      expect(csrf.body).toEqual({
        code: 'DEPENDENCY_UNAVAILABLE',
        message: 'Sign-in is not available',
        correlationId: expect.any(String),
      });
      const sign = await client.request('POST', '/api/auth/callback/credentials', {
        form: { email: 'admin@northside.test', password: 'demo-password-1' },
      });
      expect(sign.status).toBe(503);
      // Like every sign-in failure, it keeps next-auth's url, which next-auth's client reads the error from.
      expect(sign.body).toEqual({
        code: 'DEPENDENCY_UNAVAILABLE',
        message: 'Sign-in is not available',
        correlationId: expect.any(String),
        url: `${app.url}/api/auth/error?error=DEPENDENCY_UNAVAILABLE`,
      });
      expect(client.sessionToken).toBeUndefined();
      expect((await client.get('/api/appointments?date=2026-01-01')).status).toBe(503);
    } finally {
      await app.stop();
    }
  });
});

describe('production mode', () => {
  it('never seeds the demo tenant: demo users do not exist and health says production', async () => {
    const app = await startApp({ env: { SVC_ENV: 'production' } });
    try {
      expect((await new HttpClient(app.url).get('/api/health')).body).toEqual({
        status: 'ok',
        mode: 'production',
        database: 'ok',
      });
      expect(await app.db.organization.count()).toBe(0);
      const { response } = await attemptSignIn(app, 'admin@northside.test', 'demo-password-1');
      expect(response.status).toBe(401);
    } finally {
      await app.stop();
    }
  });
});

describe('embedded database (PGlite)', () => {
  it('serves the sandbox with the demo tenant and signs a demo user in', async () => {
    const app = await startApp({ database: 'pglite' });
    try {
      expect((await new HttpClient(app.url).get('/api/health')).body).toEqual({
        status: 'ok',
        mode: 'sandbox',
        database: 'ok',
      });
      const client = await signIn(app, 'frontdesk@northside.test');
      // The clinic's today, in New York: after 19:00 there, UTC is already on the next day.
      const res = await client.get(`/api/appointments?date=${clinicToday(new Date(), 'America/New_York')}`);
      expect(res.status).toBe(200);
      expect(res.body.appointments).toHaveLength(10);
    } finally {
      await app.stop();
    }
    // The start itself is in this test, not in a hook: the embedded database's migrations (wasm) and the demo
    // seed took 25-31 s here beside two other test workers on a slow two-core machine, past the 30 s default.
  }, 120_000);
});
