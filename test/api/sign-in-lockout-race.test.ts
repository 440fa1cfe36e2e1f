// Sign-in under pressure (issue #11 item 10): attempts on one account are reserved before the password is
// checked, so a parallel burst gets no more guesses than the lock allows and a right password inside the burst
// does not undo a lock; a per-address throttle bounds spraying across accounts; oversized forms are refused
// before any password work. Every failure body keeps next-auth's url. The throttle's address is the socket's
// unless TRUSTED_PROXY_HOPS says proxies stand in front (issue #30 item 5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient } from '../support/http';
import { createTenant, createUser, type TestUser } from '../support/factories';

const SIGN_IN = '/api/auth/callback/credentials';

/** A sign-in from a chosen client address (X-Forwarded-For, as a proxy in front would send it). */
async function attemptFrom(app: TestApp, forwardedFor: string, email: string, password: string) {
  const client = new HttpClient(app.url);
  const headers = { 'x-forwarded-for': forwardedFor };
  const csrf = await client.get<{ csrfToken: string }>('/api/auth/csrf', { headers });
  const response = await client.request('POST', SIGN_IN, {
    form: { csrfToken: csrf.body.csrfToken, email, password, json: 'true' },
    headers,
  });
  return { client, response };
}

const badPasswordChecks = (app: TestApp, userId: string) =>
  app.db.auditLog.count({ where: { userId, action: 'sign-in', detail: { path: ['reason'], equals: 'bad-password' } } });

describe('sign-in attempt reservation', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('checks at most 5 of 12 parallel wrong guesses; the rest are refused 423 with Retry-After and url', async () => {
    const user = await createUser(app.db, await createTenant(app.db));
    const results = await Promise.all(
      Array.from({ length: 12 }, () => attemptFrom(app, '198.51.100.1', user.email, 'wrong-guess')),
    );

    expect(await badPasswordChecks(app, user.id)).toBe(5);
    const statuses = results.map((r) => r.response.status);
    expect(statuses.every((s) => s === 401 || s === 423)).toBe(true);
    expect(statuses.filter((s) => s === 423).length).toBeGreaterThanOrEqual(7);
    for (const { response } of results.filter((r) => r.response.status === 423)) {
      expect(response.body).toEqual({
        code: 'ACCOUNT_LOCKED',
        message: expect.any(String),
        correlationId: expect.any(String),
        url: expect.stringContaining('/api/auth/error'),
      });
      const retry = Number(response.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(900);
    }
    const row = await app.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
  });

  it('does not let a right password that was being checked clear a lock earned meanwhile', async () => {
    // The interleaving is made exact: the right attempt's reservation is seen in the row, then the lock a
    // concurrent failure would earn is written while that attempt is still inside scrypt.
    let user: TestUser | undefined;
    let interleaved = false;
    for (let round = 0; round < 3 && !interleaved; round++) {
      user = await createUser(app.db, await createTenant(app.db));
      await app.db.user.update({ where: { id: user.id }, data: { failedSignIns: 4 } });
      const attempt = attemptFrom(app, '198.51.100.2', user.email, user.password);
      const deadline = Date.now() + 3000;
      while (
        Date.now() < deadline &&
        (await app.db.user.findUniqueOrThrow({ where: { id: user.id } })).failedSignIns !== 5
      ) {
        await new Promise((r) => setTimeout(r, 2));
      }
      const earned = await app.db.user.updateMany({
        where: { id: user.id, failedSignIns: 5 },
        data: { lockedUntil: new Date(Date.now() + 900_000), failedSignIns: 0, sessionVersion: { increment: 1 } },
      });
      interleaved = earned.count === 1;
      if (!interleaved)
        await app.db.user.update({ where: { id: user.id }, data: { lockedUntil: new Date(Date.now() + 900_000) } });
      const { client, response } = await attempt;
      if (!interleaved && response.status === 423) continue; // the reservation was refused: try the race again
      expect(response.status).toBe(423);
      expect(response.body).toMatchObject({ code: 'ACCOUNT_LOCKED', url: expect.stringContaining('/api/auth/error') });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(client.sessionToken).toBeUndefined();
      const row = await app.db.user.findUniqueOrThrow({ where: { id: user.id } });
      expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    }
    expect(interleaved).toBe(true);
  });

  it('gives the slot back when a right password still needs its MFA code, so asking for the code never locks', async () => {
    const user = await createUser(app.db, await createTenant(app.db));
    await app.db.user.update({ where: { id: user.id }, data: { mfaEnabled: true, failedSignIns: 4 } });
    for (let i = 0; i < 3; i++) {
      const { response } = await attemptFrom(app, '198.51.100.3', user.email, user.password);
      expect(response.body.code).toBe('MFA_REQUIRED');
    }
    const row = await app.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.failedSignIns).toBe(4);
    expect(row.lockedUntil).toBeNull();
  });
});

describe('per-address sign-in throttle without a trusted proxy (TRUSTED_PROXY_HOPS unset)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('counts the socket address: 33 guesses under rotated X-Forwarded-For (and peer) headers end in 429', async () => {
    const guess = async (i: number) => {
      const client = new HttpClient(app.url);
      const headers = { 'x-forwarded-for': `198.18.${i}.${i + 1}`, 'x-svc-peer-address': `198.19.0.${i + 1}` };
      const csrf = await client.get<{ csrfToken: string }>('/api/auth/csrf', { headers });
      const response = await client.request('POST', SIGN_IN, {
        form: {
          csrfToken: csrf.body.csrfToken,
          email: `rotated-${i}@nowhere.test`,
          password: 'Summer2026!',
          json: 'true',
        },
        headers,
      });
      return response.status;
    };
    const statuses: number[] = [];
    for (let batch = 0; batch < 6; batch++)
      statuses.push(...(await Promise.all(Array.from({ length: 5 }, (_, i) => guess(batch * 5 + i)))));
    expect(statuses.every((s) => s === 401)).toBe(true);
    for (let i = 30; i < 33; i++) statuses.push(await guess(i));
    expect(statuses.slice(30)).toEqual([429, 429, 429]);
    expect(await app.db.rateLimitCounter.findUnique({ where: { key: 'sign-in-address:127.0.0.1' } })).toMatchObject({
      count: 30,
    });
  }, 120_000);
});

describe('per-address sign-in throttle behind one trusted proxy (TRUSTED_PROXY_HOPS=1)', () => {
  let app: TestApp;
  beforeAll(async () => {
    // The test process plays the proxy: the X-Forwarded-For entry it appends is the client's address.
    app = await startApp({ env: { TRUSTED_PROXY_HOPS: '1' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers 429 with Retry-After and url after 30 failures from one address across accounts, before any password check', async () => {
    const address = '203.0.113.9';
    for (let batch = 0; batch < 6; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          attemptFrom(app, address, `sprayed-${batch}-${i}@nowhere.test`, 'Summer2026!'),
        ),
      );
      for (const { response } of responses) expect(response.status).toBe(401);
    }
    const checked = () =>
      app.db.auditLog.count({ where: { action: 'sign-in', detail: { path: ['reason'], equals: 'unknown-user' } } });
    const before = await checked();

    // A real account, the right password, and a spoofed leftmost hop: still the address the proxy appended.
    const user = await createUser(app.db, await createTenant(app.db));
    const { client, response } = await attemptFrom(app, `10.9.8.7, ${address}`, user.email, user.password);
    expect(response.status).toBe(429);
    expect(response.body).toEqual({
      code: 'RATE_LIMITED',
      message: expect.any(String),
      correlationId: expect.any(String),
      url: expect.stringContaining('/api/auth/error'),
    });
    const retry = Number(response.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(900);
    expect(client.sessionToken).toBeUndefined();
    expect((await attemptFrom(app, address, 'another@nowhere.test', 'x')).response.status).toBe(429);
    expect(await checked()).toBe(before);

    // Another address is not affected.
    expect((await attemptFrom(app, '203.0.113.10', 'sprayed-0-0@nowhere.test', 'Summer2026!')).response.status).toBe(
      401,
    );
    expect((await attemptFrom(app, '203.0.113.10', user.email, user.password)).response.status).toBe(200);
  });

  it('counts only failures: successful sign-ins from a busy address never use the allowance', async () => {
    const user = await createUser(app.db, await createTenant(app.db));
    for (let i = 0; i < 3; i++)
      expect((await attemptFrom(app, '203.0.113.20', user.email, user.password)).response.status).toBe(200);
    const row = await app.db.rateLimitCounter.findUnique({ where: { key: 'sign-in-address:203.0.113.20' } });
    expect(row?.count ?? 0).toBe(0);
  });
});

describe('sign-in form limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function csrfClient() {
    const client = new HttpClient(app.url);
    const csrf = await client.get<{ csrfToken: string }>('/api/auth/csrf');
    return { client, csrfToken: csrf.body.csrfToken };
  }

  it('refuses an overlong password with 400 and url before any password check or count', async () => {
    const user = await createUser(app.db, await createTenant(app.db));
    const { client, csrfToken } = await csrfClient();
    const res = await client.request('POST', SIGN_IN, {
      form: { csrfToken, email: user.email, password: 'x'.repeat(1025), json: 'true' },
    });
    expect(res.status).toBe(400);
    // The same validation body as every other 400: which field, and what it must be.
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The sign-in form is not valid',
      correlationId: expect.any(String),
      issues: [{ path: 'body.password', message: 'Text of at most 1024 characters' }],
      url: expect.stringContaining('/api/auth/error'),
    });
    expect(await app.db.auditLog.count({ where: { userId: user.id } })).toBe(0);
    expect((await app.db.user.findUniqueOrThrow({ where: { id: user.id } })).failedSignIns).toBe(0);
  });

  it('refuses a form larger than 8 KiB, or one without a declared length, with 400 and url', async () => {
    const user = await createUser(app.db, await createTenant(app.db));
    const { client, csrfToken } = await csrfClient();
    const big = await client.request('POST', SIGN_IN, {
      form: { csrfToken, email: user.email, password: 'p', padding: 'x'.repeat(9000), json: 'true' },
    });
    expect(big.status).toBe(400);
    expect(big.body).toMatchObject({ code: 'VALIDATION_FAILED', url: expect.stringContaining('/api/auth/error') });

    const form = new URLSearchParams({
      csrfToken,
      email: user.email,
      password: user.password,
      json: 'true',
    }).toString();
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(form));
        c.close();
      },
    });
    const chunked = await client.request('POST', SIGN_IN, {
      body: stream,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(chunked.status).toBe(400);
    expect(client.sessionToken).toBeUndefined();
    expect(await app.db.auditLog.count({ where: { userId: user.id } })).toBe(0);
  });
});
