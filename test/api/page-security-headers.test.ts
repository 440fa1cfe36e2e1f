// Staff pages' browser defences (issue #11 item 12): a nonce-based Content-Security-Policy whose nonce is on every
// script Next renders, no framing, nosniff and no-referrer; behind an https APP_URL also HSTS and the __Host-
// session cookie.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { attemptSignIn, HttpClient, signIn } from '../support/http';
import { setCookie } from '../support/auth-factors';

function nonceOf(policy: string | null): string {
  const match = /script-src [^;]*'nonce-([A-Za-z0-9+/=]+)'/.exec(policy ?? '');
  if (!match) throw new Error(`no script nonce in ${policy}`);
  return match[1]!;
}

function expectPageHeaders(headers: Headers) {
  const policy = headers.get('content-security-policy') ?? '';
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("'strict-dynamic'");
  expect(policy).toContain("object-src 'none'");
  expect(policy).toContain("base-uri 'none'");
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
}

describe('page security headers over http', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('sends a fresh CSP nonce on the sign-in page and stamps it on every script tag', async () => {
    const client = new HttpClient(app.url);
    const first = await client.get('/login');
    expect(first.status).toBe(200);
    expectPageHeaders(first.headers);
    const nonce = nonceOf(first.headers.get('content-security-policy'));
    const scripts = first.text.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);

    const second = await client.get('/login');
    expect(nonceOf(second.headers.get('content-security-policy'))).not.toBe(nonce);
    expect(first.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends the same headers on a signed-in staff page and nosniff, no-referrer on redirects and API answers', async () => {
    const client = await signIn(app, 'frontdesk@northside.test');
    const page = await client.get('/eligibility/verify');
    expect(page.status).toBe(200);
    expectPageHeaders(page.headers);
    for (const tag of page.text.match(/<script\b[^>]*>/g) ?? [])
      expect(tag).toContain(`nonce="${nonceOf(page.headers.get('content-security-policy'))}"`);

    const redirect = await new HttpClient(app.url).get('/eligibility/roster');
    expect(redirect.status).toBeGreaterThanOrEqual(300);
    expect(redirect.headers.get('x-content-type-options')).toBe('nosniff');
    expect(redirect.headers.get('referrer-policy')).toBe('no-referrer');

    const api = await new HttpClient(app.url).get('/api/appointments?date=2026-01-01');
    expect(api.status).toBe(401);
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends the same headers and the same 401 on the routes that skip the middleware (835 upload, receivers, roster)', async () => {
    const anonymous = new HttpClient(app.url);
    const upload = await anonymous.request('POST', '/api/remittances', {
      body: 'ISA*00*',
      headers: { 'content-type': 'application/edi-x12' },
    });
    expect(upload.status).toBe(401);
    expect(upload.body).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'Sign in to continue',
      correlationId: upload.headers.get('x-correlation-id'),
    });
    const list = await anonymous.get('/api/remittances');
    const receiver = await anonymous.request('POST', '/api/webhooks/payment', { body: '{}' });
    const roster = await anonymous.request('POST', '/api/eligibility/roster', {
      body: JSON.stringify({ appointments: [{ patientId: 'pat_1' }] }),
      headers: { 'content-type': 'application/json' },
    });
    expect([list.status, receiver.status, roster.status]).toEqual([401, 401, 401]);
    expect(roster.body).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'Sign in to continue',
      correlationId: roster.headers.get('x-correlation-id'),
    });
    for (const answer of [upload, list, receiver, roster]) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
    }
  });
});

describe('behind https (APP_URL https://…)', () => {
  let app: TestApp;
  const origin = 'https://clinic.example';
  beforeAll(async () => {
    app = await startApp({ env: { APP_URL: origin, NEXTAUTH_URL: origin } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('adds HSTS to pages and API answers', async () => {
    const page = await new HttpClient(app.url).get('/login');
    expectPageHeaders(page.headers);
    expect(page.headers.get('strict-transport-security')).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
    expect(page.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    expect((await new HttpClient(app.url).get('/api/health')).headers.get('strict-transport-security')).toMatch(
      /^max-age=/,
    );
    const upload = await new HttpClient(app.url).get('/api/remittances');
    expect(upload.status).toBe(401);
    expect(upload.headers.get('strict-transport-security')).toMatch(/^max-age=/);
  });

  it('sets the session as a __Host- cookie (Secure, Path=/, no Domain) that then authenticates', async () => {
    const { client, response } = await attemptSignIn(app, 'frontdesk@northside.test', 'demo-password-1');
    expect(response.status).toBe(200);
    const cookie = setCookie(response.headers, '__Host-next-auth.session-token');
    expect(cookie).toBeDefined();
    expect(cookie!.attributes.secure).toBe(true);
    expect(cookie!.attributes.path).toBe('/');
    expect(cookie!.attributes.domain).toBeUndefined();
    expect(cookie!.attributes.httponly).toBe(true);
    expect(response.headers.getSetCookie().some((c) => c.startsWith('__Secure-next-auth.session-token='))).toBe(false);

    const session = await client.get('/api/auth/step-up');
    expect(session.status).toBe(200);
    // The unprefixed name means nothing there: a cookie planted without the prefix does not authenticate.
    const planted = await new HttpClient(app.url).get('/api/auth/step-up', {
      headers: { cookie: `next-auth.session-token=${cookie!.value}` },
    });
    expect(planted.status).toBe(401);
  });
});
