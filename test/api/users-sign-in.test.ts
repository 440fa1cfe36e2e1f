// What sign-in says beyond "not correct" (issue #15 item 6), and the step-up claim ending with the session
// (item 8), over real HTTP: the failure that leaves one attempt before the lock warns; a right code that was
// already used says so; a step-up granted before signing out does not serve the next sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { attemptSignIn, HttpClient, signIn } from '../support/http';
import { createTenant, createUser } from '../support/factories';
import { createMfaUser, stepUpWithPassword, totpCode } from '../support/auth-factors';

const LAST_ATTEMPT =
  'The e-mail, password or code is not correct. One more failed attempt locks the account for 15 minutes.';
const REUSED = 'That code was already used. Wait for the next code in your authenticator app, or use a backup code.';

async function signOut(client: HttpClient) {
  const csrf = await client.get<{ csrfToken: string }>('/api/auth/csrf');
  return client.request('POST', '/api/auth/signout', { form: { csrfToken: csrf.body.csrfToken, json: 'true' } });
}

describe('sign-in notices and sign-out', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('warns on the failure that leaves one attempt before the lock, then locks on the next', async () => {
    const user = await createUser(app.db, await createTenant(app.db));
    const messages: string[] = [];
    for (let i = 0; i < 4; i++)
      messages.push((await attemptSignIn(app, user.email, `wrong ${i}`)).response.body.message);
    expect(messages).toEqual([
      'The e-mail, password or code is not correct',
      'The e-mail, password or code is not correct',
      'The e-mail, password or code is not correct',
      LAST_ATTEMPT,
    ]);
    const fifth = await attemptSignIn(app, user.email, 'wrong 5');
    expect(fifth.response.status).toBe(423);
    expect(fifth.response.body).toMatchObject({ code: 'ACCOUNT_LOCKED', url: expect.any(String) });
  });

  it('says a TOTP code or backup code refused as already used is reused', async () => {
    const user = await createMfaUser(app.db);
    const code = await totpCode(user.secret);
    await signIn(app, user.email, user.password, code);
    const replay = await attemptSignIn(app, user.email, user.password, code);
    expect(replay.response.status).toBe(401);
    expect(replay.response.body).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: REUSED,
      url: expect.any(String),
    });

    const backup = user.backupCodes[0]!;
    await signIn(app, user.email, user.password, backup);
    const again = await attemptSignIn(app, user.email, user.password, backup);
    expect(again.response.body).toMatchObject({ code: 'INVALID_CREDENTIALS', message: REUSED });

    const wrong = await attemptSignIn(app, user.email, user.password, '000000');
    expect(wrong.response.body.message).toBe('The e-mail, password or code is not correct');
  });

  it('a passkey removal right after signing out and in again asks for a step-up again', async () => {
    const user = await createUser(app.db, await createTenant(app.db));
    const browser = await signIn(app, user.email, user.password);
    const claim = await stepUpWithPassword(browser, user.password);
    const gated = '/api/auth/webauthn/credentials/no-such-passkey';
    // With the claim the gate lets the request through (404: no such passkey).
    expect((await browser.delete(gated)).status).toBe(404);

    expect((await signOut(browser)).status).toBe(200);
    expect(browser.cookies.has('svc-step-up')).toBe(false);
    const fresh = await signIn(app, user.email, user.password);
    for (const [name, value] of fresh.cookies) browser.cookies.set(name, value);
    const res = await browser.delete(gated);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    // Even a copy of the old claim (kept by a script, or a cookie that outlived sign-out) serves only its session.
    const copied = await fresh.delete(gated, { headers: { 'x-svc-step-up': claim } });
    expect(copied.status).toBe(401);
    expect(copied.body).toMatchObject({ code: 'STEP_UP_REQUIRED' });
  });
});

describe('the sandbox at another host than APP_URL (issue #15 item 11)', () => {
  let app: TestApp;
  beforeAll(async () => {
    // The app listens on 127.0.0.1 but its public origin says localhost, as `npm start` does by default.
    app = await startApp({ env: { APP_URL: 'http://localhost:4999', NEXTAUTH_URL: 'http://localhost:4999' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("sends a page view to APP_URL's host before sign-in, path and query kept; API calls are not redirected", async () => {
    const client = new HttpClient(app.url);
    const page = await client.get('/login?callbackUrl=%2Fadmin%2Fusers');
    expect(page.status).toBe(307);
    expect(page.headers.get('location')).toBe('http://localhost:4999/login?callbackUrl=%2Fadmin%2Fusers');
    const staff = await client.get('/admin/users');
    expect(staff.headers.get('location')).toBe('http://localhost:4999/admin/users');
    expect((await client.get('/api/health')).status).toBe(200);
  });
});
