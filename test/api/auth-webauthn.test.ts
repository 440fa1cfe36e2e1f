// Passkeys over real HTTP with a software authenticator (P-256, fmt none): registration persists only verified
// attestations, challenges are single use and bound to user and purpose, the ceremony cookie is always cleared,
// removal is step-up gated and owner-only, and a passkey passes step-up only with a fresh, valid assertion.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient } from '../support/http';
import { jwtPayload, parseSetCookie, setCookie, signedInUser, stepUpWithPassword } from '../support/auth-factors';
import { createSoftAuthenticator, type SoftAuthenticator } from '../support/soft-authenticator';

const REGISTER = '/api/auth/webauthn/register';
const CHALLENGE_GONE = {
  code: 'VALIDATION_FAILED',
  message: 'The passkey challenge is missing or has expired; start again',
  correlationId: expect.any(String),
  issues: [{ path: 'cookie', message: 'No valid challenge for this ceremony' }],
};
const NOT_VERIFIED = {
  code: 'INVALID_CREDENTIALS',
  message: 'The passkey could not be verified; nothing was saved',
  correlationId: expect.any(String),
};

const expectCleared = (headers: Headers, name: string) => {
  const cookie = setCookie(headers, name);
  expect(cookie?.value).toBe('');
  expect(cookie?.attributes['max-age']).toBe('0');
};

describe('passkeys', () => {
  let app: TestApp;
  let origin: string;
  beforeAll(async () => {
    app = await startApp();
    origin = app.env.WEBAUTHN_ORIGIN!;
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** A signed-in user with a fresh step-up claim in the jar. */
  async function steppedUpUser() {
    const signed = await signedInUser(app);
    await stepUpWithPassword(signed.client, signed.user.password);
    return signed;
  }

  async function register(client: HttpClient, authenticator: SoftAuthenticator = createSoftAuthenticator()) {
    const { body } = await client.post(REGISTER, { step: 'options' });
    const res = await client.post(REGISTER, {
      step: 'verify',
      response: authenticator.attest({ challenge: body.options.challenge, origin }),
    });
    if (res.status !== 200) throw new Error(`registration failed: ${res.status} ${res.text}`);
    return authenticator;
  }

  it('refuses callers without a session on every passkey route', async () => {
    const anonymous = new HttpClient(app.url);
    for (const res of [
      await anonymous.post(REGISTER, { step: 'options' }),
      await anonymous.get('/api/auth/webauthn/credentials'),
      await anonymous.delete('/api/auth/webauthn/credentials/abc'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 'UNAUTHENTICATED',
        message: 'Sign in to continue',
        correlationId: expect.any(String),
      });
    }
  });

  it('needs a step-up claim to register, so a hijacked session cannot plant its own passkey', async () => {
    const { user, client } = await signedInUser(app);
    const res = await client.post(REGISTER, { step: 'options' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      code: 'STEP_UP_REQUIRED',
      message: 'Confirm it is you to continue',
      correlationId: expect.any(String),
    });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await app.db.webAuthnChallenge.count({ where: { userId: user.id } })).toBe(0);
  });

  it('options: a user-bound challenge stored only as its hash, in a sealed httpOnly cookie', async () => {
    const { user, client } = await steppedUpUser();
    const res = await client.post(REGISTER, { step: 'options' });
    expect(res.status).toBe(200);
    const { options } = res.body;
    expect(options).toMatchObject({
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43,}$/),
      rp: { id: 'localhost', name: 'Clinic Revenue Platform (test)' },
      user: { name: user.email, id: Buffer.from(user.id).toString('base64url') },
      excludeCredentials: [],
      attestation: 'none',
      authenticatorSelection: { userVerification: 'required' },
    });
    const cookie = setCookie(res.headers, 'svc-webauthn-reg');
    expect(cookie?.attributes).toEqual({
      path: '/api/auth/webauthn/register',
      'max-age': '300',
      httponly: true,
      samesite: 'Strict',
    });
    expect(decodeURIComponent(cookie!.value)).not.toContain(options.challenge);

    const rows = await app.db.webAuthnChallenge.findMany({ where: { userId: user.id } });
    expect(rows).toEqual([
      expect.objectContaining({
        id: createHash('sha256').update(options.challenge).digest('hex'),
        purpose: 'register',
        userId: user.id,
      }),
    ]);
    expect(Math.abs(rows[0]!.expiresAt.getTime() - (Date.now() + 300_000))).toBeLessThan(10_000);
  });

  it('verify: persists the verified credential, clears the cookie, spends the challenge and audits it', async () => {
    const { user, client } = await steppedUpUser();
    const authenticator = createSoftAuthenticator();
    const { body } = await client.post(REGISTER, { step: 'options' });
    const response = authenticator.attest({ challenge: body.options.challenge, origin });
    const sentCookie = client.cookies.get('svc-webauthn-reg')!;
    const res = await client.post(
      REGISTER,
      { step: 'verify', response, name: 'Work laptop' },
      { headers: { 'x-correlation-id': 'corr-passkey-reg-0001' } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      credentialId: authenticator.credentialId,
      deviceType: 'singleDevice',
      backedUp: false,
    });
    expectCleared(res.headers, 'svc-webauthn-reg');
    expect(await app.db.webAuthnChallenge.count({ where: { userId: user.id } })).toBe(0);
    const stored = await app.db.webAuthnCredential.findUniqueOrThrow({ where: { id: authenticator.credentialId } });
    expect(stored).toMatchObject({
      userId: user.id,
      name: 'Work laptop',
      counter: 0n,
      transports: ['internal'],
      deviceType: 'singleDevice',
      backedUp: false,
    });
    expect(await app.db.auditLog.findMany({ where: { correlationId: 'corr-passkey-reg-0001' } })).toEqual([
      expect.objectContaining({
        action: 'passkey.register',
        outcome: 'success',
        userId: user.id,
        detail: { credentialId: authenticator.credentialId },
      }),
    ]);

    // The same answer again, with the spent cookie: the challenge is gone, nothing new is stored.
    const replay = await client.post(
      REGISTER,
      { step: 'verify', response },
      {
        headers: {
          cookie: `svc-webauthn-reg=${sentCookie}; svc-step-up=${client.cookies.get('svc-step-up')}; next-auth.session-token=${client.sessionToken}`,
        },
      },
    );
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual(CHALLENGE_GONE);
    expectCleared(replay.headers, 'svc-webauthn-reg');
    expect(await app.db.webAuthnCredential.count({ where: { userId: user.id } })).toBe(1);

    // The next ceremony excludes the passkey already registered.
    const next = await client.post(REGISTER, { step: 'options' });
    expect(next.body.options.excludeCredentials).toEqual([
      { id: authenticator.credentialId, type: 'public-key', transports: ['internal'] },
    ]);
  });

  it('persists nothing from a garbage attestation, and still spends the challenge and clears the cookie', async () => {
    const { user, client } = await steppedUpUser();
    await client.post(REGISTER, { step: 'options' });
    const garbage = {
      id: 'Z2FyYmFnZQ',
      rawId: 'Z2FyYmFnZQ',
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: 'Z2FyYmFnZQ', attestationObject: 'Z2FyYmFnZQ' },
    };
    const res = await client.post(
      REGISTER,
      { step: 'verify', response: garbage },
      { headers: { 'x-correlation-id': 'corr-passkey-bad-0001' } },
    );
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ ...NOT_VERIFIED, correlationId: 'corr-passkey-bad-0001' });
    expectCleared(res.headers, 'svc-webauthn-reg');
    expect(await app.db.webAuthnCredential.count({ where: { userId: user.id } })).toBe(0);
    expect(await app.db.webAuthnChallenge.count({ where: { userId: user.id } })).toBe(0);
    expect(await app.db.auditLog.findMany({ where: { correlationId: 'corr-passkey-bad-0001' } })).toEqual([
      expect.objectContaining({
        action: 'passkey.register',
        outcome: 'failure',
        detail: { reason: 'attestation-did-not-verify' },
      }),
    ]);
  });

  it.each([
    [
      'signed over another challenge',
      (a: SoftAuthenticator, _c: string, o: string) =>
        a.attest({ challenge: 'c29tZS1vdGhlci1jaGFsbGVuZ2UtdmFsdWUtMTIzNDU2Nzg', origin: o }),
    ],
    [
      'from another origin',
      (a: SoftAuthenticator, c: string) => a.attest({ challenge: c, origin: 'https://evil.example' }),
    ],
    [
      'for another relying party',
      (a: SoftAuthenticator, c: string, o: string) => a.attest({ challenge: c, origin: o, rpId: 'evil.example' }),
    ],
    [
      'without user verification',
      (a: SoftAuthenticator, c: string, o: string) => a.attest({ challenge: c, origin: o, userVerified: false }),
    ],
  ])('refuses an attestation %s with 401 and stores nothing', async (_name, forge) => {
    const { user, client } = await steppedUpUser();
    const { body } = await client.post(REGISTER, { step: 'options' });
    const res = await client.post(REGISTER, {
      step: 'verify',
      response: forge(createSoftAuthenticator(), body.options.challenge, origin),
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_VERIFIED);
    expect(await app.db.webAuthnCredential.count({ where: { userId: user.id } })).toBe(0);
  });

  it('refuses a verify without the cookie, with a forged cookie, or after the challenge expired', async () => {
    const { user, client } = await steppedUpUser();
    const { body } = await client.post(REGISTER, { step: 'options' });
    const response = createSoftAuthenticator().attest({ challenge: body.options.challenge, origin });
    const realCookie = client.cookies.get('svc-webauthn-reg')!;

    client.cookies.delete('svc-webauthn-reg');
    const none = await client.post(REGISTER, { step: 'verify', response });
    expect(none.status).toBe(400);
    expect(none.body).toEqual(CHALLENGE_GONE);

    client.cookies.set('svc-webauthn-reg', `${realCookie.slice(0, -4)}AAAA`);
    expect((await client.post(REGISTER, { step: 'verify', response })).body).toEqual(CHALLENGE_GONE);

    await app.db.webAuthnChallenge.updateMany({
      where: { userId: user.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    client.cookies.set('svc-webauthn-reg', realCookie);
    expect((await client.post(REGISTER, { step: 'verify', response })).body).toEqual(CHALLENGE_GONE);
    expect(await app.db.webAuthnCredential.count({ where: { userId: user.id } })).toBe(0);
  });

  it("refuses user A's ceremony cookie on user B's session, and A can still finish", async () => {
    const a = await steppedUpUser();
    const b = await steppedUpUser();
    const authenticator = createSoftAuthenticator();
    const { body } = await a.client.post(REGISTER, { step: 'options' });
    const response = authenticator.attest({ challenge: body.options.challenge, origin });
    b.client.cookies.set('svc-webauthn-reg', a.client.cookies.get('svc-webauthn-reg')!);
    const stolen = await b.client.post(REGISTER, { step: 'verify', response });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toEqual(CHALLENGE_GONE);
    expect(await app.db.webAuthnCredential.count({ where: { userId: b.user.id } })).toBe(0);
    expect((await a.client.post(REGISTER, { step: 'verify', response })).status).toBe(200);
  });

  it('allows 5 failed registrations per 15 minutes, then 429 on options and verify', async () => {
    const { user, client } = await steppedUpUser();
    for (let i = 1; i <= 5; i++) {
      const { body } = await client.post(REGISTER, { step: 'options' });
      const res = await client.post(REGISTER, {
        step: 'verify',
        response: createSoftAuthenticator().attest({
          challenge: body.options.challenge,
          origin: 'https://evil.example',
        }),
      });
      expect(res.status, `failure ${i}`).toBe(401);
    }
    const options = await client.post(REGISTER, { step: 'options' });
    expect(options.status).toBe(429);
    expect(options.body).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many failed attempts; try again later',
      correlationId: expect.any(String),
    });
    expect(Number(options.headers.get('retry-after'))).toBeGreaterThan(850);
    expect(options.headers.getSetCookie()).toEqual([]);
    expect(await app.db.rateLimitCounter.findUnique({ where: { key: `webauthn:${user.id}` } })).toMatchObject({
      count: 5,
    });
  });

  it("lists only the caller's passkeys, without key material", async () => {
    const a = await steppedUpUser();
    const b = await steppedUpUser();
    const authenticator = await register(a.client);
    await register(b.client);
    const res = await a.client.get('/api/auth/webauthn/credentials');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      passkeys: [
        {
          id: authenticator.credentialId,
          name: null,
          deviceType: 'singleDevice',
          backedUp: false,
          transports: ['internal'],
          createdAt: expect.any(String),
          lastUsedAt: null,
        },
      ],
    });
  });

  describe('DELETE /api/auth/webauthn/credentials/{id}', () => {
    it('removes the own passkey after step-up, and audits it', async () => {
      const { user, client } = await steppedUpUser();
      const authenticator = await register(client);
      const res = await client.delete(`/api/auth/webauthn/credentials/${authenticator.credentialId}`, {
        headers: { 'x-correlation-id': 'corr-passkey-del-0001' },
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await app.db.webAuthnCredential.count({ where: { userId: user.id } })).toBe(0);
      expect(await app.db.auditLog.findMany({ where: { correlationId: 'corr-passkey-del-0001' } })).toEqual([
        expect.objectContaining({
          action: 'passkey.remove',
          outcome: 'success',
          userId: user.id,
          detail: { credentialId: authenticator.credentialId },
        }),
      ]);
    });

    it('needs a step-up claim', async () => {
      const { user, client } = await steppedUpUser();
      const authenticator = await register(client);
      client.cookies.delete('svc-step-up');
      const res = await client.delete(`/api/auth/webauthn/credentials/${authenticator.credentialId}`);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('STEP_UP_REQUIRED');
      expect(await app.db.webAuthnCredential.count({ where: { userId: user.id } })).toBe(1);
    });

    it("answers another user's passkey as not found and leaves it in place", async () => {
      const victim = await steppedUpUser();
      const authenticator = await register(victim.client);
      const attacker = await steppedUpUser();
      const res = await attacker.client.delete(`/api/auth/webauthn/credentials/${authenticator.credentialId}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'NOT_FOUND', message: 'No such passkey', correlationId: expect.any(String) });
      expect(await app.db.webAuthnCredential.count({ where: { id: authenticator.credentialId } })).toBe(1);
    });
  });

  describe('step-up with a passkey', () => {
    async function userWithPasskey() {
      const signed = await steppedUpUser();
      const authenticator = await register(signed.client);
      signed.client.cookies.delete('svc-step-up');
      return { ...signed, authenticator };
    }

    it('options then verify mints a webauthn claim, moves the counter and clears the ceremony cookie', async () => {
      const { user, client, authenticator } = await userWithPasskey();
      expect((await client.get('/api/auth/step-up')).body).toEqual({
        factors: ['webauthn', 'password'],
        defaultFactor: 'password',
        mfaEnabled: false,
        backupCodesRemaining: 0,
        passkeyCount: 1,
      });
      const options = await client.post('/api/auth/step-up', { factor: 'webauthn', step: 'options' });
      expect(options.status).toBe(200);
      expect(options.body.options).toMatchObject({
        rpId: 'localhost',
        userVerification: 'required',
        allowCredentials: [{ id: authenticator.credentialId, type: 'public-key', transports: ['internal'] }],
      });
      expect(setCookie(options.headers, 'svc-webauthn-auth')?.attributes).toEqual({
        path: '/api/auth/step-up',
        'max-age': '300',
        httponly: true,
        samesite: 'Strict',
      });
      expect(options.headers.getSetCookie().some((c) => c.startsWith('svc-step-up='))).toBe(false);

      const assertion = authenticator.assert({ challenge: options.body.options.challenge, origin });
      const verify = await client.post('/api/auth/step-up', {
        factor: 'webauthn',
        step: 'verify',
        response: assertion,
      });
      expect(verify.status).toBe(200);
      expect(jwtPayload(verify.body.stepUpToken)).toMatchObject({ sub: user.id, amr: ['webauthn'] });
      expect(setCookie(verify.headers, 'svc-step-up')?.value).toBe(verify.body.stepUpToken);
      expectCleared(verify.headers, 'svc-webauthn-auth');
      const stored = await app.db.webAuthnCredential.findUniqueOrThrow({ where: { id: authenticator.credentialId } });
      expect(stored.counter).toBe(1n);
      expect(stored.lastUsedAt).not.toBeNull();
      // The claim opens a gated route.
      expect((await client.delete('/api/auth/webauthn/credentials/unknown')).status).toBe(404);
    });

    it('refuses a replayed assertion: the challenge was spent', async () => {
      const { client, authenticator } = await userWithPasskey();
      const options = await client.post('/api/auth/step-up', { factor: 'webauthn', step: 'options' });
      const ceremony = client.cookies.get('svc-webauthn-auth')!;
      const assertion = authenticator.assert({ challenge: options.body.options.challenge, origin });
      expect(
        (await client.post('/api/auth/step-up', { factor: 'webauthn', step: 'verify', response: assertion })).status,
      ).toBe(200);
      client.cookies.set('svc-webauthn-auth', ceremony);
      client.cookies.delete('svc-step-up');
      const replay = await client.post('/api/auth/step-up', {
        factor: 'webauthn',
        step: 'verify',
        response: assertion,
      });
      expect(replay.status).toBe(400);
      expect(replay.body).toEqual(CHALLENGE_GONE);
      expect(replay.headers.getSetCookie().map((c) => parseSetCookie(c).name)).toEqual(['svc-webauthn-auth']);
    });

    it.each([
      [
        'signed by another key under the same credential id',
        (a: SoftAuthenticator) => {
          const impostor = createSoftAuthenticator();
          impostor.credentialId = a.credentialId;
          return impostor;
        },
      ],
      [
        'with a signature counter that went backwards (a cloned key)',
        (a: SoftAuthenticator) => {
          a.counter = -1; // the next assertion carries counter 0, below the stored 1
          return a;
        },
      ],
    ])('refuses an assertion %s', async (_name, tamper) => {
      const { client, authenticator } = await userWithPasskey();
      const first = await client.post('/api/auth/step-up', { factor: 'webauthn', step: 'options' });
      await client.post('/api/auth/step-up', {
        factor: 'webauthn',
        step: 'verify',
        response: authenticator.assert({ challenge: first.body.options.challenge, origin }),
      });
      client.cookies.delete('svc-step-up');
      const options = await client.post('/api/auth/step-up', { factor: 'webauthn', step: 'options' });
      const res = await client.post('/api/auth/step-up', {
        factor: 'webauthn',
        step: 'verify',
        response: tamper(authenticator).assert({ challenge: options.body.options.challenge, origin }),
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 'INVALID_CREDENTIALS',
        message: 'The passkey could not be verified',
        correlationId: expect.any(String),
      });
      expect(res.headers.getSetCookie().map((c) => parseSetCookie(c).name)).toEqual(['svc-webauthn-auth']);
    });

    it("refuses user A's passkey on user B's step-up", async () => {
      const a = await userWithPasskey();
      const b = await userWithPasskey();
      const options = await b.client.post('/api/auth/step-up', { factor: 'webauthn', step: 'options' });
      const res = await b.client.post('/api/auth/step-up', {
        factor: 'webauthn',
        step: 'verify',
        response: a.authenticator.assert({ challenge: options.body.options.challenge, origin }),
      });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_CREDENTIALS');
    });

    it('refuses a verify whose challenge cookie is missing, and one without a step', async () => {
      const { client, authenticator } = await userWithPasskey();
      const options = await client.post('/api/auth/step-up', { factor: 'webauthn', step: 'options' });
      client.cookies.delete('svc-webauthn-auth');
      const res = await client.post('/api/auth/step-up', {
        factor: 'webauthn',
        step: 'verify',
        response: authenticator.assert({ challenge: options.body.options.challenge, origin }),
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(CHALLENGE_GONE);
      const noStep = await client.post('/api/auth/step-up', { factor: 'webauthn' });
      expect(noStep.status).toBe(400);
      expect(noStep.body.issues).toEqual([
        { path: 'body.step', message: 'step must be options or verify for a passkey' },
      ]);
    });
  });
});

describe('passkeys without WEBAUTHN_*', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({
      env: { WEBAUTHN_RP_ID: undefined, WEBAUTHN_RP_NAME: undefined, WEBAUTHN_ORIGIN: undefined },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers 503 before the ceremony starts: no challenge, no cookie', async () => {
    const { user, client } = await signedInUser(app);
    await stepUpWithPassword(client, user.password);
    const res = await client.post(REGISTER, { step: 'options' });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'Passkeys are not available',
      correlationId: expect.any(String),
    });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await app.db.webAuthnChallenge.count()).toBe(0);
    const stepUp = await client.post('/api/auth/step-up', { factor: 'webauthn', step: 'options' });
    expect(stepUp.status).toBe(503);
    expect(stepUp.headers.getSetCookie()).toEqual([]);
  });
});
