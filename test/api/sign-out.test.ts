// Sign-out ends the session on the server (issue #11 item 13): every copy of its token, as a cookie or a
// bearer, and every re-issued copy next-auth handed out while the session was read, is refused afterwards; the
// step-up cookie goes with it. Other sessions of the same user are untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser } from '../support/factories';
import { setCookie, stepUpWithPassword } from '../support/auth-factors';

const PROTECTED = '/api/auth/step-up';

async function signOut(client: HttpClient) {
  const csrf = await client.get<{ csrfToken: string }>('/api/auth/csrf');
  return client.request('POST', '/api/auth/signout', { form: { csrfToken: csrf.body.csrfToken, json: 'true' } });
}

describe('sign-out', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('revokes the session: a copied cookie, a bearer copy and an earlier re-issued token all get 401 afterwards', async () => {
    const user = await createUser(app.db, await createTenant(app.db));
    const browser = await signIn(app, user.email, user.password);
    const copied = browser.sessionToken!;
    // Reading the session makes next-auth re-encode the token (new jti, new expiry): one more copy of the session.
    const reissued = (await browser.get('/api/auth/session')).headers
      .getSetCookie()
      .find((c) => c.startsWith('next-auth.session-token='));
    expect(reissued).toBeDefined();
    const reissuedToken = reissued!.split(';')[0]!.split('=').slice(1).join('=');
    expect(reissuedToken).not.toBe(copied);
    const other = await signIn(app, user.email, user.password);

    const asCookie = (token: string) =>
      new HttpClient(app.url).get(PROTECTED, { headers: { cookie: `next-auth.session-token=${token}` } });
    const asBearer = (token: string) =>
      new HttpClient(app.url).get(PROTECTED, { headers: { authorization: `Bearer ${token}` } });
    expect((await asCookie(copied)).status).toBe(200);
    expect((await asBearer(copied)).status).toBe(200);

    const out = await signOut(browser);
    expect(out.status).toBe(200);
    expect(browser.sessionToken).toBeUndefined();

    for (const token of [copied, reissuedToken]) {
      const byCookie = await asCookie(token);
      expect(byCookie.status).toBe(401);
      expect(byCookie.body).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect((await asBearer(token)).status).toBe(401);
    }
    // next-auth's own session read answers as signed out too, and re-issues nothing.
    const read = await new HttpClient(app.url).get('/api/auth/session', {
      headers: { cookie: `next-auth.session-token=${copied}` },
    });
    expect(read.body).toEqual({});
    expect(
      read.headers
        .getSetCookie()
        .filter((c) => c.startsWith('next-auth.session-token=') && !/max-age=0|expires=thu, 01 jan 1970/i.test(c)),
    ).toEqual([]);
    const revoked = await app.db.revokedSession.findMany({ where: { userId: user.id } });
    expect(revoked).toHaveLength(1);
    expect(revoked[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 7 * 3600 * 1000);

    // The same user's other session (another browser) is not signed out by this one.
    expect((await other.get(PROTECTED)).status).toBe(200);
  });

  it('clears the step-up cookie with the session', async () => {
    const user = await createUser(app.db, await createTenant(app.db));
    const client = await signIn(app, user.email, user.password);
    await stepUpWithPassword(client, user.password);
    expect(client.cookies.get('svc-step-up')).toBeDefined();

    const out = await signOut(client);
    const cleared = setCookie(out.headers, 'svc-step-up');
    expect(cleared).toBeDefined();
    expect(cleared!.value).toBe('');
    expect(cleared!.attributes['max-age']).toBe('0');
    expect(cleared!.attributes.path).toBe('/');
    expect(client.cookies.get('svc-step-up')).toBeUndefined();
  });
});
