// /api/users over real HTTP and PostgreSQL: a clinic admin (users:admin) lists, invites, changes the scopes of,
// unlocks, resets MFA and deactivates users of their own clinic only, each change behind a step-up claim and
// audited; nobody grants a scope they do not hold, nor acts on a user holding one; an invitation link sets a
// password once; a deactivated user's session ends at once.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { attemptSignIn, HttpClient, signIn } from '../support/http';
import { stepUpHeader } from '../support/step-up-claim';
import { createTenant, createUser, type TestTenant, type TestUser } from '../support/factories';
import { createMfaUser, totpCode } from '../support/auth-factors';

const anyString = expect.any(String);
const STEP_UP_REQUIRED = {
  code: 'STEP_UP_REQUIRED',
  message: 'Confirm it is you to continue',
  correlationId: anyString,
};
const NOT_FOUND = { code: 'NOT_FOUND', message: 'No such user in your clinic', correlationId: anyString };

describe('/api/users', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let admin: TestUser;
  let adminClient: HttpClient;
  beforeAll(async () => {
    app = await startApp();
    tenant = await createTenant(app.db, 'Users');
    admin = await createUser(app.db, tenant);
    adminClient = await signIn(app, admin.email, admin.password);
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** A POST as the admin with a fresh step-up claim. */
  const gated = async (path: string, json?: unknown, client = adminClient, email = admin.email) =>
    client.post(path, json, { headers: await stepUpHeader(app, email) });

  it('refuses callers without a session (401) and without users:admin (403 SCOPE_MISSING)', async () => {
    const anonymous = new HttpClient(app.url);
    for (const res of [
      await anonymous.get('/api/users'),
      await anonymous.post('/api/users', { email: 'x@example.test', scopes: ['claims:read'] }),
      await anonymous.post('/api/users/user_x/unlock'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'UNAUTHENTICATED', message: 'Sign in to continue', correlationId: anyString });
    }
    const clerk = await createUser(app.db, tenant, { scopes: ['claims:read', 'eligibility:read'] });
    const clerkClient = await signIn(app, clerk.email, clerk.password);
    for (const res of [
      await clerkClient.get('/api/users'),
      await clerkClient.post('/api/users', { email: 'x@example.test', scopes: ['claims:read'] }),
      await clerkClient.post(`/api/users/${admin.id}/deactivate`, undefined, {
        headers: await stepUpHeader(app, clerk.email),
      }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: 'SCOPE_MISSING',
        message: 'This action needs the users:admin scope',
        correlationId: anyString,
      });
    }
  });

  it("lists the clinic's own users with their states and never a hash or secret; Southside never sees Northside", async () => {
    const locked = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    await app.db.user.update({ where: { id: locked.id }, data: { lockedUntil: new Date(Date.now() + 600_000) } });
    const res = await adminClient.get('/api/users');
    expect(res.status).toBe(200);
    const ids = res.body.users.map((u: { id: string }) => u.id);
    expect(ids).toContain(admin.id);
    expect(res.body.users.find((u: { id: string }) => u.id === locked.id)).toEqual({
      id: locked.id,
      email: locked.email,
      scopes: ['claims:read'],
      mfaEnabled: false,
      locked: true,
      lockedUntil: anyString,
      deactivated: false,
      deactivatedAt: null,
      invitationPending: false,
      createdAt: anyString,
    });
    expect(res.text).not.toMatch(/scrypt|passwordHash|mfaSecret/);
    const others = await app.db.user.findMany({ where: { clinicId: { not: tenant.clinicId } }, select: { id: true } });
    expect(ids.filter((id: string) => others.some((o) => o.id === id))).toEqual([]);

    const south = await signIn(app, 'admin@southside.test');
    const southList = await south.get('/api/users');
    expect(southList.status).toBe(200);
    const emails = southList.body.users.map((u: { email: string }) => u.email);
    expect(emails).toContain('admin@southside.test');
    expect(emails.filter((e: string) => !e.endsWith('@southside.test'))).toEqual([]);
  });

  it('invites only behind a step-up claim; without one nothing is created', async () => {
    const email = `no-step-up-${Date.now()}@example.test`;
    const res = await adminClient.post('/api/users', { email, scopes: ['claims:read'] });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(STEP_UP_REQUIRED);
    expect(await app.db.user.count({ where: { email } })).toBe(0);
  });

  it('refuses to grant a scope the admin does not hold (403) and audits the refusal; nothing is created', async () => {
    const limited = await createUser(app.db, tenant, { scopes: ['users:admin', 'claims:read'] });
    const client = await signIn(app, limited.email, limited.password);
    const email = `too-much-${Date.now()}@example.test`;
    const res = await gated('/api/users', { email, scopes: ['claims:read', 'svcpay:write'] }, client, limited.email);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'FORBIDDEN',
      message: "You can't grant a scope you don't hold: svcpay:write",
      correlationId: anyString,
    });
    expect(await app.db.user.count({ where: { email } })).toBe(0);
    const audit = await app.db.auditLog.findFirstOrThrow({
      where: { correlationId: res.body.correlationId },
    });
    expect(audit).toMatchObject({
      action: 'users.invite',
      outcome: 'refused',
      userId: limited.id,
      clinicId: tenant.clinicId,
      detail: { reason: 'scope-not-held', scopes: ['svcpay:write'] },
    });
  });

  it.each([
    [{ email: 'not-an-email', scopes: ['claims:read'] }, 'body.email'],
    [{ email: 'someone@example.test', scopes: [] }, 'body.scopes'],
    [{ email: 'someone@example.test', scopes: ['root:all'] }, 'body.scopes.0'],
  ])('refuses an invitation body %j with 400 naming %s', async (body, path) => {
    const res = await gated('/api/users', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it('invites: the link is answered once and stored as its sha256; the invitee sets a password once and signs in', async () => {
    const email = `invitee-${Date.now()}@example.test`;
    const res = await gated('/api/users', { email: email.toUpperCase(), scopes: ['claims:read', 'patients:read'] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: expect.objectContaining({ email, scopes: ['claims:read', 'patients:read'], invitationPending: true }),
      invitationUrl: expect.stringMatching(new RegExp(`^${app.url}/login/accept\\?token=[A-Za-z0-9_-]{43}$`)),
      expiresAt: anyString,
    });
    const expiresIn = Date.parse(res.body.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(7 * 86400_000 - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(7 * 86400_000);
    const token = new URL(res.body.invitationUrl).searchParams.get('token')!;
    const user = await app.db.user.findUniqueOrThrow({ where: { email } });
    expect(user).toMatchObject({ clinicId: tenant.clinicId, orgId: tenant.orgId, invitedBy: admin.id });
    const invitations = await app.db.userInvitation.findMany({ where: { userId: user.id } });
    expect(invitations).toEqual([
      expect.objectContaining({ tokenHash: createHash('sha256').update(token).digest('hex'), usedAt: null }),
    ]);
    expect(JSON.stringify(invitations)).not.toContain(token);
    const audit = await app.db.auditLog.findFirstOrThrow({
      where: { correlationId: res.headers.get('x-correlation-id')! },
    });
    expect(audit).toMatchObject({
      action: 'users.invite',
      outcome: 'success',
      userId: admin.id,
      detail: { invitedUserId: user.id, scopes: ['claims:read', 'patients:read'] },
    });

    // No usable password before the invitation is accepted.
    expect((await attemptSignIn(app, email, 'invited$no-password-yet')).response.status).toBe(401);

    const anonymous = new HttpClient(app.url);
    const short = await anonymous.post('/api/users/invitations/accept', { token, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.issues).toEqual([{ path: 'body.password', message: 'Use at least 12 characters' }]);

    const accepted = await anonymous.post('/api/users/invitations/accept', { token, password: 'a new long password' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ ok: true, email });
    const invitee = await signIn(app, email, 'a new long password');
    const session = await invitee.get('/api/auth/session');
    expect(session.body.user).toMatchObject({ email, scopes: ['claims:read', 'patients:read'] });

    const again = await anonymous.post('/api/users/invitations/accept', { token, password: 'another long password' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'This invitation link is not valid any more; ask your clinic admin for a new one',
      correlationId: anyString,
      issues: [
        {
          path: 'body.token',
          message: 'This invitation link is not valid any more; ask your clinic admin for a new one',
        },
      ],
    });
    // The listed user no longer waits on the invitation.
    const listed = (await adminClient.get('/api/users')).body.users.find((u: { email: string }) => u.email === email);
    expect(listed.invitationPending).toBe(false);
  });

  it('refuses an expired or unknown invitation token and a duplicate e-mail', async () => {
    const email = `expiring-${Date.now()}@example.test`;
    const res = await gated('/api/users', { email, scopes: ['claims:read'] });
    const token = new URL(res.body.invitationUrl).searchParams.get('token')!;
    await app.db.userInvitation.updateMany({
      where: { tokenHash: createHash('sha256').update(token).digest('hex') },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const anonymous = new HttpClient(app.url);
    for (const t of [token, 'no-such-token']) {
      const accept = await anonymous.post('/api/users/invitations/accept', {
        token: t,
        password: 'a new long password',
      });
      expect(accept.status).toBe(400);
      expect(accept.body.code).toBe('VALIDATION_FAILED');
    }
    const duplicate = await gated('/api/users', { email, scopes: ['claims:read'] });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.issues).toEqual([
      { path: 'body.email', message: 'A user with this e-mail address already exists' },
    ]);
  });

  it('unlocks a locked user with step-up: the user signs in again, and the audit log says who did it', async () => {
    const user = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    await app.db.user.update({
      where: { id: user.id },
      data: { lockedUntil: new Date(Date.now() + 900_000), failedSignIns: 0 },
    });
    expect((await attemptSignIn(app, user.email, user.password)).response.status).toBe(423);

    const without = await adminClient.post(`/api/users/${user.id}/unlock`);
    expect(without.status).toBe(401);
    expect(without.body).toEqual(STEP_UP_REQUIRED);

    const res = await gated(`/api/users/${user.id}/unlock`);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, locked: false, lockedUntil: null });
    expect((await attemptSignIn(app, user.email, user.password)).response.status).toBe(200);
    const audit = await app.db.auditLog.findFirstOrThrow({
      where: { correlationId: res.headers.get('x-correlation-id')! },
    });
    expect(audit).toMatchObject({
      action: 'users.unlock',
      outcome: 'success',
      userId: admin.id,
      clinicId: tenant.clinicId,
      detail: { targetUserId: user.id, wasLocked: true },
    });
  });

  it("answers 404 for another clinic's user on every action, changes nothing and audits the refusal", async () => {
    const elsewhere = await createTenant(app.db, 'Elsewhere');
    const other = await createMfaUser(app.db, elsewhere);
    const lockedUntil = new Date(Date.now() + 900_000);
    await app.db.user.update({ where: { id: other.id }, data: { lockedUntil } });
    for (const action of ['unlock', 'reset-mfa', 'deactivate']) {
      const res = await gated(`/api/users/${other.id}/${action}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      const audit = await app.db.auditLog.findFirstOrThrow({ where: { correlationId: res.body.correlationId } });
      expect(audit).toMatchObject({ outcome: 'refused', detail: { targetUserId: other.id, reason: 'NOT_FOUND' } });
    }
    expect(await app.db.user.findUniqueOrThrow({ where: { id: other.id } })).toMatchObject({
      lockedUntil,
      mfaEnabled: true,
      deactivatedAt: null,
    });
    const northUser = await app.db.user.findUniqueOrThrow({ where: { email: 'frontdesk@northside.test' } });
    const south = await signIn(app, 'admin@southside.test');
    const res = await south.post(`/api/users/${northUser.id}/unlock`, undefined, {
      headers: await stepUpHeader(app, 'admin@southside.test'),
    });
    expect(res.status).toBe(404);
  });

  it("resets a user's MFA: secret and backup codes gone, their sessions end, they sign in with the password alone", async () => {
    const user = await createMfaUser(app.db, tenant);
    const { totpCode } = await import('../support/auth-factors');
    const session = await signIn(app, user.email, user.password, await totpCode(user.secret));
    expect((await session.get('/api/auth/step-up')).status).toBe(200);

    const res = await gated(`/api/users/${user.id}/reset-mfa`);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, mfaEnabled: false });
    expect(await app.db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      mfaEnabled: false,
      mfaSecretSealed: null,
    });
    expect(await app.db.backupCode.count({ where: { userId: user.id } })).toBe(0);
    expect((await session.get('/api/auth/step-up')).status).toBe(401);
    expect((await attemptSignIn(app, user.email, user.password)).response.status).toBe(200);
    const audit = await app.db.auditLog.findFirstOrThrow({
      where: { correlationId: res.headers.get('x-correlation-id')! },
    });
    expect(audit).toMatchObject({
      action: 'users.mfa.reset',
      detail: { targetUserId: user.id, wasEnabled: true, backupCodesRemoved: 10 },
    });
  });

  it("deactivates a user: their open session ends at once and sign-in is refused; an admin can't deactivate themselves", async () => {
    const user = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    const session = await signIn(app, user.email, user.password);
    expect((await session.get('/api/auth/step-up')).status).toBe(200);

    const res = await gated(`/api/users/${user.id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, deactivated: true, deactivatedAt: anyString });
    const after = await session.get('/api/auth/step-up');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'Your session has ended; sign in again',
      correlationId: anyString,
    });
    const signInAgain = await attemptSignIn(app, user.email, user.password);
    expect(signInAgain.response.status).toBe(403);
    expect(signInAgain.response.body).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This account has been deactivated. Ask your clinic admin if you need access again.',
      url: anyString,
    });
    // A wrong password reads like any wrong password: the state is told only to someone who knows the password.
    const wrong = await attemptSignIn(app, user.email, 'not the password');
    expect(wrong.response.status).toBe(401);

    const self = await gated(`/api/users/${admin.id}/deactivate`);
    expect(self.status).toBe(422);
    expect(self.body).toEqual({
      code: 'UNPROCESSABLE',
      message: "You can't deactivate your own account; ask another admin",
      correlationId: anyString,
    });
    expect((await adminClient.get('/api/users')).status).toBe(200);
  });

  it('refuses every action on a user holding a scope the admin lacks (403), changes nothing and audits it', async () => {
    // The finding: an admin with only users:admin and claims:read reset the MFA of an admin with every scope.
    const limited = await createUser(app.db, tenant, { scopes: ['users:admin', 'claims:read'] });
    const client = await signIn(app, limited.email, limited.password);
    const strong = await createMfaUser(app.db, tenant);
    const lockedUntil = new Date(Date.now() + 900_000);
    await app.db.user.update({ where: { id: strong.id }, data: { lockedUntil } });
    const before = await app.db.user.findUniqueOrThrow({ where: { id: strong.id } });
    const notHeld = before.scopes.filter((scope) => !['users:admin', 'claims:read'].includes(scope));
    const requests = [
      ['unlock', () => gated(`/api/users/${strong.id}/unlock`, undefined, client, limited.email)],
      ['reset-mfa', () => gated(`/api/users/${strong.id}/reset-mfa`, undefined, client, limited.email)],
      ['deactivate', () => gated(`/api/users/${strong.id}/deactivate`, undefined, client, limited.email)],
      [
        'scopes',
        async () =>
          client.patch(
            `/api/users/${strong.id}`,
            { scopes: ['claims:read'] },
            { headers: await stepUpHeader(app, limited.email) },
          ),
      ],
    ] as const;
    for (const [name, send] of requests) {
      const res = await send();
      expect({ name, status: res.status, body: res.body }).toEqual({
        name,
        status: 403,
        body: {
          code: 'FORBIDDEN',
          message: `You can't change a user who holds a scope you don't hold: ${notHeld.join(', ')}`,
          correlationId: anyString,
        },
      });
      const audit = await app.db.auditLog.findFirstOrThrow({ where: { correlationId: res.body.correlationId } });
      expect(audit).toMatchObject({
        outcome: 'refused',
        userId: limited.id,
        detail: { targetUserId: strong.id, reason: 'FORBIDDEN', scopes: notHeld },
      });
    }
    const after = await app.db.user.findUniqueOrThrow({ where: { id: strong.id } });
    expect(after).toEqual(before);
    expect(await app.db.backupCode.count({ where: { userId: strong.id } })).toBe(10);
    // The MFA user still signs in with their code: nothing was reset (once unlocked by a full admin).
    expect((await gated(`/api/users/${strong.id}/unlock`)).status).toBe(200);
    expect(
      (await attemptSignIn(app, strong.email, strong.password, await totpCode(strong.secret))).response.status,
    ).toBe(200);

    // Within reach (every scope of the target is the admin's own), the same admin acts.
    const clerk = await createUser(app.db, tenant, { scopes: ['claims:read'] });
    await app.db.user.update({ where: { id: clerk.id }, data: { lockedUntil } });
    const unlocked = await gated(`/api/users/${clerk.id}/unlock`, undefined, client, limited.email);
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.user).toMatchObject({ id: clerk.id, locked: false });
  });

  describe('PATCH /api/users/{id}: changing scopes', () => {
    const patch = async (id: string, json: unknown, client = adminClient, email = admin.email) =>
      client.patch(`/api/users/${id}`, json, { headers: await stepUpHeader(app, email) });

    it('needs a step-up claim; without one nothing changes', async () => {
      const user = await createUser(app.db, tenant, { scopes: ['claims:read'] });
      const res = await adminClient.patch(`/api/users/${user.id}`, { scopes: ['claims:read', 'claims:write'] });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(STEP_UP_REQUIRED);
      expect((await app.db.user.findUniqueOrThrow({ where: { id: user.id } })).scopes).toEqual(['claims:read']);
    });

    it("sets the user's scopes, audited with before and after; a removed scope stops at the user's next request", async () => {
      const user = await createUser(app.db, tenant, { scopes: ['claims:read', 'patients:read'] });
      const session = await signIn(app, user.email, user.password);
      expect((await session.get('/api/patients?name=a')).status).not.toBe(403);

      const res = await patch(user.id, { scopes: ['claims:read', 'claims:write', 'claims:read'] });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: user.id, scopes: ['claims:read', 'claims:write'] });
      expect((await app.db.user.findUniqueOrThrow({ where: { id: user.id } })).scopes).toEqual([
        'claims:read',
        'claims:write',
      ]);
      const audit = await app.db.auditLog.findFirstOrThrow({
        where: { correlationId: res.headers.get('x-correlation-id')! },
      });
      expect(audit).toMatchObject({
        action: 'users.scopes.change',
        outcome: 'success',
        userId: admin.id,
        clinicId: tenant.clinicId,
        detail: {
          targetUserId: user.id,
          before: ['claims:read', 'patients:read'],
          after: ['claims:read', 'claims:write'],
        },
      });
      const refused = await session.get('/api/patients?name=a');
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('SCOPE_MISSING');
      // An added scope comes with the next sign-in.
      const again = await signIn(app, user.email, user.password);
      expect((await again.get('/api/auth/session')).body.user.scopes).toEqual(['claims:read', 'claims:write']);
    });

    it('never grants a scope the admin does not hold (403), audited, nothing changed', async () => {
      const limited = await createUser(app.db, tenant, { scopes: ['users:admin', 'claims:read', 'patients:read'] });
      const client = await signIn(app, limited.email, limited.password);
      const user = await createUser(app.db, tenant, { scopes: ['claims:read'] });
      const res = await patch(user.id, { scopes: ['claims:read', 'svcpay:write'] }, client, limited.email);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: 'FORBIDDEN',
        message: "You can't grant a scope you don't hold: svcpay:write",
        correlationId: anyString,
      });
      expect((await app.db.user.findUniqueOrThrow({ where: { id: user.id } })).scopes).toEqual(['claims:read']);
      expect(
        await app.db.auditLog.findFirstOrThrow({ where: { correlationId: res.body.correlationId } }),
      ).toMatchObject({
        action: 'users.scopes.change',
        outcome: 'refused',
        detail: { targetUserId: user.id, reason: 'scope-not-held', scopes: ['svcpay:write'] },
      });
      // Within what the admin holds, the change goes through.
      const ok = await patch(user.id, { scopes: ['patients:read'] }, client, limited.email);
      expect(ok.status).toBe(200);
      expect(ok.body.user.scopes).toEqual(['patients:read']);
    });

    it("answers 404 for another clinic's user, 422 for one's own scopes, 400 for an empty or unknown scope", async () => {
      const elsewhere = await createTenant(app.db, 'Elsewhere scopes');
      const other = await createUser(app.db, elsewhere, { scopes: ['claims:read'] });
      const foreign = await patch(other.id, { scopes: ['claims:read', 'claims:write'] });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(NOT_FOUND);
      expect((await app.db.user.findUniqueOrThrow({ where: { id: other.id } })).scopes).toEqual(['claims:read']);

      const self = await patch(admin.id, { scopes: ['claims:read'] });
      expect(self.status).toBe(422);
      expect(self.body).toEqual({
        code: 'UNPROCESSABLE',
        message: "You can't change your own scopes; ask another admin",
        correlationId: anyString,
      });
      expect((await app.db.user.findUniqueOrThrow({ where: { id: admin.id } })).scopes).toContain('users:admin');

      const user = await createUser(app.db, tenant, { scopes: ['claims:read'] });
      for (const [body, path] of [
        [{ scopes: [] }, 'body.scopes'],
        [{ scopes: ['root:all'] }, 'body.scopes.0'],
        [{}, 'body.scopes'],
      ] as const) {
        const res = await patch(user.id, body);
        expect(res.status).toBe(400);
        expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(path);
      }
    });
  });

  it('is in the OpenAPI document with the users:admin scope and step-up on every change', async () => {
    const doc = (await new HttpClient(app.url).get('/api/openapi.json')).body;
    expect(doc.paths['/api/users'].get['x-scope']).toBe('users:admin');
    expect(doc.paths['/api/users'].post).toMatchObject({ 'x-scope': 'users:admin', 'x-step-up': true });
    for (const action of ['unlock', 'reset-mfa', 'deactivate'])
      expect(doc.paths[`/api/users/{id}/${action}`].post).toMatchObject({
        'x-scope': 'users:admin',
        'x-step-up': true,
      });
    expect(doc.paths['/api/users/{id}'].patch).toMatchObject({ 'x-scope': 'users:admin', 'x-step-up': true });
    expect(doc.paths['/api/users/invitations/accept'].post.security).toEqual([]);
    expect(doc.paths['/api/audit'].get['x-scope']).toBe('users:admin');
    expect(doc.paths['/api/auth/password'].post['x-scope']).toBeNull();
  });
});
