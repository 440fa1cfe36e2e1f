// POST /api/auth/step-up and the step-up gate, attacked over real HTTP: factor checks, replay, the per-user
// failure limit at its exact boundary, and claims that are foreign, expired, tampered or outlived their session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { mintStepUpClaim } from '@/lib/auth/step-up';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { attemptSignIn, HttpClient, signIn } from '../support/http';
import { createTenant, createUser } from '../support/factories';
import {
  createMfaUser,
  jwtPayload,
  setCookie,
  signedInUser,
  stepUpWithPassword,
  totpCode,
} from '../support/auth-factors';

const GATED = '/api/auth/webauthn/credentials/no-such-passkey';
const STEP_UP_REQUIRED = {
  code: 'STEP_UP_REQUIRED',
  message: 'Confirm it is you to continue',
  correlationId: expect.any(String),
};
const WWW_AUTHENTICATE =
  'Bearer error="insufficient_user_authentication", error_description="A recent step-up authentication is required"';
const stepUpSecret = () => new TextEncoder().encode(TEST_SECRETS.STEP_UP_SECRET);

describe('POST /api/auth/step-up', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('refuses a caller without a session before any handler runs', async () => {
    const anonymous = new HttpClient(app.url);
    for (const res of [
      await anonymous.post('/api/auth/step-up', { password: 'x' }),
      await anonymous.get('/api/auth/step-up'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 'UNAUTHENTICATED',
        message: 'Sign in to continue',
        correlationId: expect.any(String),
      });
    }
  });

  it('grants a 300 s claim for the password when MFA is off: body, httpOnly SameSite=Strict cookie, audit row', async () => {
    const { user, client } = await signedInUser(app);
    const before = Date.now();
    const res = await client.post(
      '/api/auth/step-up',
      { password: user.password },
      { headers: { 'x-correlation-id': 'corr-step-up-ok-0001' } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      stepUpToken: expect.any(String),
      expiresAt: expect.any(String),
      ttlSeconds: 300,
    });
    const expiresAt = Date.parse(res.body.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 300_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 300_000);
    expect(jwtPayload(res.body.stepUpToken)).toMatchObject({
      sub: user.id,
      org: user.orgId,
      sv: 0,
      amr: ['password'],
      aud: 'svc-step-up',
    });

    const cookie = setCookie(res.headers, 'svc-step-up');
    expect(cookie?.value).toBe(res.body.stepUpToken);
    // Plain-http loopback APP_URL: no Secure (the https case is below).
    expect(cookie?.attributes).toEqual({ path: '/', 'max-age': '300', httponly: true, samesite: 'Strict' });

    const audit = await app.db.auditLog.findMany({ where: { correlationId: 'corr-step-up-ok-0001' } });
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'step-up',
        outcome: 'success',
        userId: user.id,
        orgId: user.orgId,
        detail: { factor: 'password' },
      }),
    ]);
  });

  it('answers a wrong password with 401, no claim and a failure audit row', async () => {
    const { user, client } = await signedInUser(app);
    const res = await client.post(
      '/api/auth/step-up',
      { factor: 'password', password: 'not-it' },
      { headers: { 'x-correlation-id': 'corr-step-up-bad-0001' } },
    );
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      code: 'INVALID_CREDENTIALS',
      message: 'The password is not correct',
      correlationId: 'corr-step-up-bad-0001',
    });
    expect(res.headers.getSetCookie()).toEqual([]);
    const audit = await app.db.auditLog.findMany({ where: { correlationId: 'corr-step-up-bad-0001' } });
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'step-up',
        outcome: 'failure',
        userId: user.id,
        detail: { factor: 'password', reason: 'factor-did-not-verify' },
      }),
    ]);
  });

  it.each([
    [
      'mfa on an account without MFA',
      { factor: 'mfa', token: '123456' },
      'body.factor',
      'This account has no authenticator app; choose another factor',
    ],
    [
      'a passkey on an account without one',
      { factor: 'webauthn', step: 'options' },
      'body.factor',
      'This account has no passkey; choose another factor',
    ],
    ['the password factor without a password', { factor: 'password' }, 'body.password', 'Enter your password'],
  ])('refuses %s with 400 and the field, and audits it', async (_name, body, path, message) => {
    const { client } = await signedInUser(app);
    const res = await client.post('/api/auth/step-up', body, {
      headers: { 'x-correlation-id': `corr-400-${path.replace('.', '-')}-${Date.now()}` },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message,
      correlationId: expect.any(String),
      issues: [{ path, message }],
    });
    expect(await app.db.auditLog.count({ where: { correlationId: res.body.correlationId, outcome: 'refused' } })).toBe(
      1,
    );
  });

  it('refuses a malformed body and an unknown factor with 400', async () => {
    const { client } = await signedInUser(app);
    const unknown = await client.post('/api/auth/step-up', { factor: 'sms', token: '1' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      issues: [expect.objectContaining({ path: 'body.factor' })],
    });
    const notJson = await client.request('POST', '/api/auth/step-up', {
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request body is not valid JSON',
      correlationId: expect.any(String),
      issues: [{ path: 'body', message: 'Invalid JSON' }],
    });
  });

  it('defaults to mfa when MFA is on, accepts a TOTP code once and refuses its replay', async () => {
    const user = await createMfaUser(app.db);
    const client = await signIn(app, user.email, user.password, user.backupCodes[0]);
    const code = totpCode(user.secret);
    const first = await client.post('/api/auth/step-up', { token: code });
    expect(first.status).toBe(200);
    expect(jwtPayload(first.body.stepUpToken)).toMatchObject({ sub: user.id, amr: ['mfa'] });
    const row = await app.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.mfaLastTimeStep).toBeGreaterThanOrEqual(BigInt(Math.floor(Date.now() / 30_000)) - 1n);

    const replay = await client.post('/api/auth/step-up', { token: code });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({
      code: 'INVALID_CREDENTIALS',
      message: 'The code is not valid or was already used',
      correlationId: expect.any(String),
    });
    expect(replay.headers.getSetCookie()).toEqual([]);
  });

  it('accepts a backup code exactly once and marks it used', async () => {
    const user = await createMfaUser(app.db);
    const client = await signIn(app, user.email, user.password, user.backupCodes[0]);
    const code = user.backupCodes[1]!;
    expect((await client.post('/api/auth/step-up', { factor: 'mfa', token: code.toUpperCase() })).status).toBe(200);
    const again = await client.post('/api/auth/step-up', { factor: 'mfa', token: code });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('INVALID_CREDENTIALS');
    expect(await app.db.backupCode.count({ where: { userId: user.id, usedAt: { not: null } } })).toBe(2);
  });

  it('an MFA user may still choose the password factor', async () => {
    const user = await createMfaUser(app.db);
    const client = await signIn(app, user.email, user.password, user.backupCodes[0]);
    const res = await client.post('/api/auth/step-up', { factor: 'password', password: user.password });
    expect(res.status).toBe(200);
    expect(jwtPayload(res.body.stepUpToken).amr).toEqual(['password']);
  });

  it('allows exactly 5 failures per 15 minutes: the 5th failure is 401, the 6th attempt 429 even with the right password', async () => {
    const { user, client } = await signedInUser(app);
    for (let i = 1; i <= 5; i++) {
      const res = await client.post('/api/auth/step-up', { password: `wrong-${i}` });
      expect(res.status, `failure ${i}`).toBe(401);
    }
    const sixth = await client.post(
      '/api/auth/step-up',
      { password: user.password },
      { headers: { 'x-correlation-id': 'corr-step-up-429-0001' } },
    );
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many failed attempts; try again later',
      correlationId: 'corr-step-up-429-0001',
    });
    const retryAfter = Number(sixth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(850);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(sixth.headers.getSetCookie()).toEqual([]);
    expect(await app.db.rateLimitCounter.findUnique({ where: { key: `step-up:${user.id}` } })).toMatchObject({
      count: 5,
    });
    expect(await app.db.auditLog.findMany({ where: { correlationId: 'corr-step-up-429-0001' } })).toEqual([
      expect.objectContaining({
        action: 'step-up',
        outcome: 'refused',
        detail: { factor: 'password', reason: 'rate-limited' },
      }),
    ]);

    // The window is fixed: once it is 15 minutes old, a new one opens.
    await app.db.rateLimitCounter.update({
      where: { key: `step-up:${user.id}` },
      data: { windowStart: new Date(Date.now() - 901_000) },
    });
    expect((await client.post('/api/auth/step-up', { password: user.password })).status).toBe(200);
  });

  it('counts only failures: a success in between gives its slot back', async () => {
    const { user, client } = await signedInUser(app);
    for (let i = 0; i < 4; i++)
      expect((await client.post('/api/auth/step-up', { password: 'wrong' })).status).toBe(401);
    expect((await client.post('/api/auth/step-up', { password: user.password })).status).toBe(200);
    expect((await client.post('/api/auth/step-up', { password: 'wrong' })).status).toBe(401);
    expect((await client.post('/api/auth/step-up', { password: user.password })).status).toBe(429);
  });

  it('lets no more than 5 of 10 parallel guesses be checked', async () => {
    const { user, client } = await signedInUser(app);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => client.post('/api/auth/step-up', { password: 'guess' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    expect(await app.db.auditLog.count({ where: { userId: user.id, action: 'step-up', outcome: 'failure' } })).toBe(5);
  });

  it("keeps one user's failures from limiting another user", async () => {
    const a = await signedInUser(app);
    const b = await signedInUser(app);
    for (let i = 0; i < 5; i++) await a.client.post('/api/auth/step-up', { password: 'wrong' });
    expect((await a.client.post('/api/auth/step-up', { password: a.user.password })).status).toBe(429);
    expect((await b.client.post('/api/auth/step-up', { password: b.user.password })).status).toBe(200);
  });
});

describe('the step-up gate (on DELETE /api/auth/webauthn/credentials/{id})', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers 401 STEP_UP_REQUIRED with RFC 9470 WWW-Authenticate without a claim', async () => {
    const { client } = await signedInUser(app);
    const res = await client.delete(GATED);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(STEP_UP_REQUIRED);
    expect(res.headers.get('www-authenticate')).toBe(WWW_AUTHENTICATE);
  });

  it('lets the own claim through, from the cookie or the x-svc-step-up header', async () => {
    const { user, client } = await signedInUser(app);
    const token = await stepUpWithPassword(client, user.password);
    const viaCookie = await client.delete(GATED);
    expect(viaCookie.status).toBe(404); // past the gate: the passkey simply does not exist
    expect(viaCookie.body).toEqual({
      code: 'NOT_FOUND',
      message: 'No such passkey',
      correlationId: expect.any(String),
    });
    client.cookies.delete('svc-step-up');
    expect((await client.delete(GATED)).status).toBe(401);
    expect((await client.delete(GATED, { headers: { 'x-svc-step-up': token } })).status).toBe(404);
  });

  it("refuses user A's claim on user B's session, in the header and in the cookie", async () => {
    const a = await signedInUser(app);
    const b = await signedInUser(app);
    const tokenA = await stepUpWithPassword(a.client, a.user.password);
    const viaHeader = await b.client.delete(GATED, { headers: { 'x-svc-step-up': tokenA } });
    expect(viaHeader.status).toBe(401);
    expect(viaHeader.body).toEqual(STEP_UP_REQUIRED);
    b.client.cookies.set('svc-step-up', tokenA);
    expect((await b.client.delete(GATED)).body).toEqual(STEP_UP_REQUIRED);
  });

  it('refuses a claim of the same user id in another organization', async () => {
    const { user, client } = await signedInUser(app);
    const foreign = await mintStepUpClaim(
      { userId: user.id, orgId: 'org_someone_else', sessionVersion: 0 },
      'password',
      TEST_SECRETS.STEP_UP_SECRET,
      new Date(),
    );
    expect((await client.delete(GATED, { headers: { 'x-svc-step-up': foreign.token } })).body).toEqual(
      STEP_UP_REQUIRED,
    );
  });

  it('refuses an expired claim and accepts one just inside its 300 s', async () => {
    const { user, client } = await signedInUser(app);
    const principal = { userId: user.id, orgId: user.orgId, sessionVersion: 0 };
    const expired = await mintStepUpClaim(
      principal,
      'password',
      TEST_SECRETS.STEP_UP_SECRET,
      new Date(Date.now() - 301_000),
    );
    expect((await client.delete(GATED, { headers: { 'x-svc-step-up': expired.token } })).body).toEqual(
      STEP_UP_REQUIRED,
    );
    const fresh = await mintStepUpClaim(
      principal,
      'password',
      TEST_SECRETS.STEP_UP_SECRET,
      new Date(Date.now() - 290_000),
    );
    expect((await client.delete(GATED, { headers: { 'x-svc-step-up': fresh.token } })).status).toBe(404);
  });

  it('refuses tampered and forged claims', async () => {
    const a = await signedInUser(app);
    const b = await signedInUser(app);
    const token = await stepUpWithPassword(a.client, a.user.password);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = jwtPayload(token);
    const asB = Buffer.from(JSON.stringify({ ...claims, sub: b.user.id, org: b.user.orgId })).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${asB}.`;
    const otherSecret = await new SignJWT({ org: b.user.orgId, sv: 0, amr: ['password'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(b.user.id)
      .setAudience('svc-step-up')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('not-the-step-up-secret-0123456789abcdef'));
    const wrongAudience = await new SignJWT({ org: b.user.orgId, sv: 0, amr: ['password'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(b.user.id)
      .setAudience('something-else')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(stepUpSecret());
    for (const forged of [
      `${header}.${asB}.${signature}`,
      `${header}.${payload}.${flipped}`,
      unsigned,
      otherSecret,
      wrongAudience,
      'garbage',
    ]) {
      const res = await b.client.delete(GATED, { headers: { 'x-svc-step-up': forged } });
      expect(res.status, forged).toBe(401);
      expect(res.body).toEqual(STEP_UP_REQUIRED);
    }
    // The untouched claim still works for its own user: the refusals above are about the edits.
    expect((await a.client.delete(GATED)).status).toBe(404);
  });

  it('kills a claim when sessionVersion changes (password or MFA change, lockout)', async () => {
    const { user, client } = await signedInUser(app);
    const token = await stepUpWithPassword(client, user.password);
    await app.db.user.update({ where: { id: user.id }, data: { sessionVersion: { increment: 1 } } });
    expect((await client.delete(GATED)).body).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'Your session has ended; sign in again',
      correlationId: expect.any(String),
    });
    const again = await signIn(app, user.email, user.password);
    expect((await again.delete(GATED, { headers: { 'x-svc-step-up': token } })).body).toEqual(STEP_UP_REQUIRED);
  });

  it('never widens scopes: a stepped-up user without svcpay:write still cannot execute a settlement', async () => {
    const tenant = await createTenant(app.db);
    const user = await createUser(app.db, tenant, { scopes: ['claims:read', 'svcpay:read'] });
    const client = await signIn(app, user.email, user.password);
    await stepUpWithPassword(client, user.password);
    const res = await client.post('/api/settlement/console/instr_missing/execute', { railReference: 'RAIL-1' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'SCOPE_MISSING',
      message: 'This action needs the svcpay:write scope',
      correlationId: expect.any(String),
    });
  });

  it('never lets a claim stand in for a session', async () => {
    const { user, client } = await signedInUser(app);
    const token = await stepUpWithPassword(client, user.password);
    const anonymous = new HttpClient(app.url);
    const res = await anonymous.delete(GATED, { headers: { 'x-svc-step-up': token, cookie: `svc-step-up=${token}` } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });
});

describe('step-up without STEP_UP_SECRET', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { STEP_UP_SECRET: undefined } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers 503 with no token and no cookie, audits the refusal, and gated routes answer 503 too', async () => {
    const { user, client } = await signedInUser(app);
    const res = await client.post(
      '/api/auth/step-up',
      { password: user.password },
      { headers: { 'x-correlation-id': 'corr-step-up-503-0001' } },
    );
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'Step-up authentication is not available',
      correlationId: 'corr-step-up-503-0001',
    });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await app.db.auditLog.findMany({ where: { correlationId: 'corr-step-up-503-0001' } })).toEqual([
      expect.objectContaining({
        action: 'step-up',
        outcome: 'refused',
        detail: { factor: null, reason: 'unconfigured' },
      }),
    ]);
    expect(await app.db.rateLimitCounter.count({ where: { NOT: { key: { startsWith: 'sign-in-address:' } } } })).toBe(
      0,
    ); // no factor slot (signing in keeps a per-address counter)
    const gated = await client.delete(GATED);
    expect(gated.status).toBe(503);
    expect(gated.body.code).toBe('DEPENDENCY_UNAVAILABLE');
  });
});

describe('step-up behind https', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({
      env: { APP_URL: 'https://clinic.example.test', NEXTAUTH_URL: 'https://clinic.example.test' },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('marks the step-up cookie Secure outside plain-http localhost', async () => {
    const tenant = await createTenant(app.db);
    const user = await createUser(app.db, tenant);
    const { client, response } = await attemptSignIn(app, user.email, user.password);
    expect(response.status).toBe(200);
    const res = await client.post('/api/auth/step-up', { password: user.password });
    expect(res.status).toBe(200);
    expect(setCookie(res.headers, 'svc-step-up')?.attributes).toEqual({
      path: '/',
      'max-age': '300',
      httponly: true,
      samesite: 'Strict',
      secure: true,
    });
  });
});
