// GET/POST /api/auth/mfa over real HTTP: enrolment needs a step-up claim, stores only sealed and hashed material,
// ends every session, refuses wrong codes and weak secrets, is rate limited; disable needs a step-up claim AND a
// code; 503 without SEAL_KEY stores nothing. POST /api/auth/mfa/backup-codes: a new set behind a step-up, the old
// set void at once.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unseal } from '@/lib/crypto/seal';
import { mfaSealContext } from '@/lib/auth/second-factor';
import { startApp, type TestApp } from '../support/app';
import { attemptSignIn, HttpClient, signIn } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';
import {
  createMfaUser,
  randomBase32Secret,
  sealKey,
  signedInUser,
  stepUpWithPassword,
  totpCode,
} from '../support/auth-factors';

/** A signed-in user holding a fresh step-up claim: turning MFA on is an MFA change and needs one. */
async function steppedUpUser(app: TestApp) {
  const signedIn = await signedInUser(app);
  await holdStepUp(app, signedIn.client);
  return signedIn;
}

const validation = (message: string, path: string) => ({
  code: 'VALIDATION_FAILED',
  message,
  correlationId: expect.any(String),
  issues: [{ path, message }],
});

async function mfaColumns(app: TestApp, userId: string) {
  return app.db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { mfaEnabled: true, mfaSecretSealed: true, mfaLastTimeStep: true, sessionVersion: true },
  });
}

describe('GET and POST /api/auth/mfa', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('refuses callers without a session', async () => {
    const anonymous = new HttpClient(app.url);
    for (const res of [
      await anonymous.get('/api/auth/mfa'),
      await anonymous.post('/api/auth/mfa', { action: 'enable', secret: 'A', token: '1' }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 'UNAUTHENTICATED',
        message: 'Sign in to continue',
        correlationId: expect.any(String),
      });
    }
  });

  it('GET mints a fresh 160-bit secret and its otpauth URL and stores nothing', async () => {
    const { user, client } = await steppedUpUser(app);
    const first = await client.get('/api/auth/mfa');
    const second = await client.get('/api/auth/mfa');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ secret: expect.stringMatching(/^[A-Z2-7]{32}$/), otpauthUrl: expect.any(String) });
    expect(second.body.secret).not.toBe(first.body.secret);
    const url = new URL(first.body.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Clinic Revenue Platform:${user.email}`);
    expect(url.searchParams.get('secret')).toBe(first.body.secret);
    expect(url.searchParams.get('issuer')).toBe('Clinic Revenue Platform');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await mfaColumns(app, user.id)).toEqual({
      mfaEnabled: false,
      mfaSecretSealed: null,
      mfaLastTimeStep: null,
      sessionVersion: 0,
    });
    expect(await app.db.backupCode.count({ where: { userId: user.id } })).toBe(0);
  });

  it('enable: seals the secret, stores 10 hashed backup codes, returns them once and ends every session', async () => {
    const { user, client } = await steppedUpUser(app);
    const other = await signIn(app, user.email, user.password); // a second browser of the same user
    const {
      body: { secret },
    } = await client.get('/api/auth/mfa');
    const code = totpCode(secret);
    const res = await client.post(
      '/api/auth/mfa',
      { action: 'enable', secret, token: code },
      { headers: { 'x-correlation-id': 'corr-mfa-enable-0001' } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, backupCodes: expect.any(Array) });
    const codes: string[] = res.body.backupCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}$/);

    const row = await mfaColumns(app, user.id);
    expect(row).toMatchObject({ mfaEnabled: true, sessionVersion: 1 });
    expect(unseal(row.mfaSecretSealed!, sealKey(), mfaSealContext(user.id))).toBe(secret);
    expect(row.mfaLastTimeStep).toBeGreaterThanOrEqual(BigInt(Math.floor(Date.now() / 30_000)) - 1n);
    const stored = await app.db.backupCode.findMany({ where: { userId: user.id } });
    expect(stored.map((b) => b.codeHash).sort()).toEqual(
      codes.map((c) => createHash('sha256').update(c.replaceAll('-', '')).digest('hex')).sort(),
    );
    expect(await app.db.auditLog.findMany({ where: { correlationId: 'corr-mfa-enable-0001' } })).toEqual([
      expect.objectContaining({
        action: 'mfa.enable',
        outcome: 'success',
        userId: user.id,
        orgId: user.orgId,
        clinicId: user.clinicId,
      }),
    ]);

    // Every session ended, the enabling one included.
    for (const session of [client, other]) expect((await session.get('/api/auth/step-up')).status).toBe(401);
    // The enrolment code was spent: it cannot sign in; a backup code can.
    expect((await attemptSignIn(app, user.email, user.password, code)).response.status).toBe(401);
    const again = await signIn(app, user.email, user.password, codes[0]);
    expect((await again.get('/api/auth/step-up')).body).toMatchObject({
      mfaEnabled: true,
      backupCodesRemaining: 9,
      defaultFactor: 'mfa',
    });
  });

  it('never writes a plaintext secret or backup code to the database', async () => {
    const { user, client } = await steppedUpUser(app);
    const {
      body: { secret },
    } = await client.get('/api/auth/mfa');
    const res = await client.post('/api/auth/mfa', {
      action: 'enable',
      secret: secret.toLowerCase(),
      token: totpCode(secret),
    });
    expect(res.status).toBe(200);
    const raw = JSON.stringify(
      {
        users: await app.db.$queryRaw`SELECT * FROM "User" WHERE "id" = ${user.id}`,
        codes: await app.db.$queryRaw`SELECT * FROM "BackupCode" WHERE "userId" = ${user.id}`,
        audit: await app.db.$queryRaw`SELECT * FROM "AuditLog" WHERE "userId" = ${user.id}`,
        limits: await app.db.$queryRaw`SELECT * FROM "RateLimitCounter"`,
      },
      (_k, v) => (typeof v === 'bigint' ? String(v) : v),
    ).toLowerCase();
    expect(raw).toContain(user.id.toLowerCase()); // the rows were read
    expect(raw).not.toContain(secret.toLowerCase());
    for (const code of res.body.backupCodes as string[]) {
      expect(raw).not.toContain(code);
      expect(raw).not.toContain(code.replaceAll('-', ''));
    }
  });

  it.each([
    [
      'a wrong code',
      (s: string) => ({ secret: s, token: '000000' === totpCode(s) ? '111111' : '000000' }),
      validation('The code does not match; check the time on your device and enter the current code', 'body.token'),
    ],
    [
      'a missing secret',
      (s: string) => ({ token: totpCode(s) }),
      validation('secret is required to turn MFA on; get one from GET /api/auth/mfa', 'body.secret'),
    ],
    [
      'a secret that is not base32',
      (s: string) => ({ secret: 'not base32!', token: totpCode(s) }),
      validation('secret must be base32', 'body.secret'),
    ],
    [
      'an 80-bit secret',
      () => ({ secret: 'JBSWY3DPEHPK3PXP', token: totpCode('JBSWY3DPEHPK3PXP') }),
      validation('secret must be 128 to 512 bits of base32', 'body.secret'),
    ],
  ])('enable refuses %s with 400 and changes nothing', async (_name, build, expected) => {
    const { user, client } = await steppedUpUser(app);
    const res = await client.post('/api/auth/mfa', { action: 'enable', ...build(randomBase32Secret()) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
    expect(await mfaColumns(app, user.id)).toEqual({
      mfaEnabled: false,
      mfaSecretSealed: null,
      mfaLastTimeStep: null,
      sessionVersion: 0,
    });
    expect(await app.db.backupCode.count({ where: { userId: user.id } })).toBe(0);
    expect((await client.get('/api/auth/step-up')).status).toBe(200); // session still alive
  });

  it('refuses a missing token and an unknown action with 400', async () => {
    const { client } = await steppedUpUser(app);
    const noToken = await client.post('/api/auth/mfa', { action: 'enable', secret: randomBase32Secret() });
    expect(noToken.status).toBe(400);
    expect(noToken.body.issues).toEqual([expect.objectContaining({ path: 'body.token' })]);
    const unknown = await client.post('/api/auth/mfa', { action: 'rotate', token: '123456' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([expect.objectContaining({ path: 'body.action' })]);
  });

  it('allows 5 wrong enable codes, then 429 even for the right one', async () => {
    const { user, client } = await steppedUpUser(app);
    const secret = randomBase32Secret();
    const wrong = totpCode(secret) === '123456' ? '654321' : '123456';
    for (let i = 1; i <= 5; i++)
      expect(
        (await client.post('/api/auth/mfa', { action: 'enable', secret, token: wrong })).status,
        `failure ${i}`,
      ).toBe(400);
    const sixth = await client.post('/api/auth/mfa', { action: 'enable', secret, token: totpCode(secret) });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many failed attempts; try again later',
      correlationId: expect.any(String),
    });
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(850);
    expect((await mfaColumns(app, user.id)).mfaEnabled).toBe(false);
  });

  it('enables only behind a step-up claim: without one it is 401, nothing is stored and the code is not spent', async () => {
    const { user, client } = await signedInUser(app);
    const {
      body: { secret },
    } = await client.get('/api/auth/mfa');
    const token = totpCode(secret);
    const res = await client.post('/api/auth/mfa', { action: 'enable', secret, token });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('insufficient_user_authentication');
    expect(res.body).toEqual({
      code: 'STEP_UP_REQUIRED',
      message: 'Confirm it is you to continue',
      correlationId: expect.any(String),
    });
    expect(await mfaColumns(app, user.id)).toEqual({
      mfaEnabled: false,
      mfaSecretSealed: null,
      mfaLastTimeStep: null,
      sessionVersion: 0,
    });
    expect(await app.db.backupCode.count({ where: { userId: user.id } })).toBe(0);
    // Once confirmed, the same code turns it on: the refused request spent nothing.
    await stepUpWithPassword(client, user.password);
    expect((await client.post('/api/auth/mfa', { action: 'enable', secret, token })).status).toBe(200);
    expect((await mfaColumns(app, user.id)).mfaEnabled).toBe(true);
  });

  it('refuses to enable over an existing authenticator', async () => {
    const user = await createMfaUser(app.db);
    const client = await holdStepUp(app, await signIn(app, user.email, user.password, user.backupCodes[0]));
    const secret = randomBase32Secret();
    const res = await client.post('/api/auth/mfa', { action: 'enable', secret, token: totpCode(secret) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      validation('MFA is already on; turn it off before setting up a new authenticator', 'body.action'),
    );
    expect(unseal((await mfaColumns(app, user.id)).mfaSecretSealed!, sealKey(), mfaSealContext(user.id))).toBe(
      user.secret,
    );
  });

  it('enables for the caller only, whatever ids the body names', async () => {
    const victim = await steppedUpUser(app);
    const { user, client } = await steppedUpUser(app);
    const {
      body: { secret },
    } = await client.get('/api/auth/mfa');
    const res = await client.post('/api/auth/mfa', {
      action: 'enable',
      secret,
      token: totpCode(secret),
      userId: victim.user.id,
      clinicId: victim.user.clinicId,
    });
    expect(res.status).toBe(200);
    expect((await mfaColumns(app, user.id)).mfaEnabled).toBe(true);
    expect(await mfaColumns(app, victim.user.id)).toEqual({
      mfaEnabled: false,
      mfaSecretSealed: null,
      mfaLastTimeStep: null,
      sessionVersion: 0,
    });
  });

  describe('new backup codes', () => {
    it('needs a step-up claim: without one it is 401 and the old codes still work', async () => {
      const user = await createMfaUser(app.db);
      const client = await signIn(app, user.email, user.password, user.backupCodes[0]);
      const res = await client.post('/api/auth/mfa/backup-codes');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 'STEP_UP_REQUIRED',
        message: 'Confirm it is you to continue',
        correlationId: expect.any(String),
      });
      expect(await app.db.backupCode.count({ where: { userId: user.id, usedAt: null } })).toBe(9);
      expect((await attemptSignIn(app, user.email, user.password, user.backupCodes[1])).response.status).toBe(200);
    });

    it('makes 10 new codes shown once: every old code is refused at once, a new one signs in, audited', async () => {
      const user = await createMfaUser(app.db);
      const client = await holdStepUp(app, await signIn(app, user.email, user.password, user.backupCodes[0]));
      const res = await client.post('/api/auth/mfa/backup-codes', undefined, {
        headers: { 'x-correlation-id': 'corr-backup-codes-0001' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ backupCodes: expect.any(Array) });
      const fresh: string[] = res.body.backupCodes;
      expect(new Set(fresh).size).toBe(10);
      for (const code of fresh) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
      expect(fresh.filter((code) => user.backupCodes.includes(code))).toEqual([]);
      // Only hashes are stored, and only the new set.
      const stored = await app.db.backupCode.findMany({ where: { userId: user.id } });
      expect(stored.map((row) => row.codeHash).sort()).toEqual(
        fresh.map((code) => createHash('sha256').update(code.replace(/-/g, '')).digest('hex')).sort(),
      );
      expect(stored.every((row) => row.usedAt === null)).toBe(true);
      expect(JSON.stringify(stored)).not.toContain(fresh[0]);

      const old = await attemptSignIn(app, user.email, user.password, user.backupCodes[1]);
      expect(old.response.status).not.toBe(200);
      expect(old.client.sessionToken).toBeUndefined();
      expect((await attemptSignIn(app, user.email, user.password, fresh[0])).response.status).toBe(200);
      // The factor did not change: the session that made them goes on.
      expect((await client.get('/api/auth/step-up')).body).toMatchObject({ mfaEnabled: true, backupCodesRemaining: 9 });
      expect(await app.db.auditLog.findMany({ where: { correlationId: 'corr-backup-codes-0001' } })).toEqual([
        expect.objectContaining({
          action: 'mfa.backup-codes.regenerate',
          outcome: 'success',
          userId: user.id,
          detail: { previousCodes: 10, codes: 10 },
        }),
      ]);
    });

    it('refuses a user without MFA (422), stores nothing and audits the refusal', async () => {
      const { user, client } = await steppedUpUser(app);
      const res = await client.post('/api/auth/mfa/backup-codes');
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        code: 'UNPROCESSABLE',
        message: 'Two-step verification is off; turn it on to get backup codes',
        correlationId: expect.any(String),
      });
      expect(await app.db.backupCode.count({ where: { userId: user.id } })).toBe(0);
      expect(await app.db.auditLog.findFirst({ where: { correlationId: res.body.correlationId } })).toMatchObject({
        action: 'mfa.backup-codes.regenerate',
        outcome: 'refused',
        detail: { reason: 'mfa-off' },
      });
    });
  });

  describe('disable', () => {
    it('needs a step-up claim first: without one it is 401 and the code is not spent', async () => {
      const user = await createMfaUser(app.db);
      const client = await signIn(app, user.email, user.password, user.backupCodes[0]);
      const res = await client.post('/api/auth/mfa', { action: 'disable', token: totpCode(user.secret) });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 'STEP_UP_REQUIRED',
        message: 'Confirm it is you to continue',
        correlationId: expect.any(String),
      });
      expect(res.headers.get('www-authenticate')).toContain('insufficient_user_authentication');
      expect(await mfaColumns(app, user.id)).toMatchObject({ mfaEnabled: true, mfaLastTimeStep: null });
    });

    it('with a claim and a valid code: drops the secret and backup codes and ends every session', async () => {
      const user = await createMfaUser(app.db);
      const client = await signIn(app, user.email, user.password, user.backupCodes[0]);
      await stepUpWithPassword(client, user.password);
      const res = await client.post(
        '/api/auth/mfa',
        { action: 'disable', token: totpCode(user.secret) },
        { headers: { 'x-correlation-id': 'corr-mfa-disable-0001' } },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await mfaColumns(app, user.id)).toEqual({
        mfaEnabled: false,
        mfaSecretSealed: null,
        mfaLastTimeStep: null,
        sessionVersion: 1,
      });
      expect(await app.db.backupCode.count({ where: { userId: user.id } })).toBe(0);
      expect(await app.db.auditLog.findMany({ where: { correlationId: 'corr-mfa-disable-0001' } })).toEqual([
        expect.objectContaining({ action: 'mfa.disable', outcome: 'success', userId: user.id }),
      ]);
      expect((await client.get('/api/auth/step-up')).status).toBe(401);
      await signIn(app, user.email, user.password); // no code needed any more
    });

    it('accepts an unused backup code as the code', async () => {
      const user = await createMfaUser(app.db);
      const client = await signIn(app, user.email, user.password, user.backupCodes[0]);
      await stepUpWithPassword(client, user.password);
      const res = await client.post('/api/auth/mfa', { action: 'disable', token: user.backupCodes[5] });
      expect(res.status).toBe(200);
      expect((await mfaColumns(app, user.id)).mfaEnabled).toBe(false);
    });

    it('with a claim but a wrong or spent code: 400 and MFA stays on', async () => {
      const user = await createMfaUser(app.db);
      const client = await signIn(app, user.email, user.password, user.backupCodes[0]);
      await stepUpWithPassword(client, user.password);
      const message = 'The code is not valid or was already used; enter a new code or a backup code';
      for (const token of [totpCode(user.secret, Date.now() - 120_000), user.backupCodes[0]!]) {
        const res = await client.post('/api/auth/mfa', { action: 'disable', token });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(validation(message, 'body.token'));
      }
      expect(await mfaColumns(app, user.id)).toMatchObject({ mfaEnabled: true, sessionVersion: 0 });
      expect(await app.db.backupCode.count({ where: { userId: user.id } })).toBe(10);
    });

    it("refuses another user's claim", async () => {
      const user = await createMfaUser(app.db);
      const attacker = await signedInUser(app);
      const foreignClaim = await stepUpWithPassword(attacker.client, attacker.user.password);
      const client = await signIn(app, user.email, user.password, user.backupCodes[0]);
      const res = await client.post(
        '/api/auth/mfa',
        { action: 'disable', token: totpCode(user.secret) },
        { headers: { 'x-svc-step-up': foreignClaim } },
      );
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('STEP_UP_REQUIRED');
      expect((await mfaColumns(app, user.id)).mfaEnabled).toBe(true);
    });

    it('refuses when MFA is off', async () => {
      const { user, client } = await signedInUser(app);
      await stepUpWithPassword(client, user.password);
      const res = await client.post('/api/auth/mfa', { action: 'disable', token: '123456' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(validation('MFA is not on', 'body.action'));
    });
  });
});

describe('MFA without SEAL_KEY', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { SEAL_KEY: undefined } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers 503 on GET and on enable, and stores nothing', async () => {
    const { user, client } = await steppedUpUser(app);
    const unavailable = {
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'Secure storage is not available',
      correlationId: expect.any(String),
    };
    const get = await client.get('/api/auth/mfa');
    expect(get.status).toBe(503);
    expect(get.body).toEqual(unavailable);
    const secret = randomBase32Secret();
    const enable = await client.post('/api/auth/mfa', { action: 'enable', secret, token: totpCode(secret) });
    expect(enable.status).toBe(503);
    expect(enable.body).toEqual(unavailable);
    expect(await mfaColumns(app, user.id)).toEqual({
      mfaEnabled: false,
      mfaSecretSealed: null,
      mfaLastTimeStep: null,
      sessionVersion: 0,
    });
    expect(await app.db.backupCode.count()).toBe(0);
    expect(await app.db.rateLimitCounter.count({ where: { NOT: { key: { startsWith: 'sign-in-address:' } } } })).toBe(
      0,
    ); // no factor slot (signing in keeps a per-address counter)
    expect((await client.get('/api/auth/step-up')).status).toBe(200); // the session was not ended
  });
});
