// The integrations screen's routes over real HTTP (issue #15 item 9): connections are named on create and by
// PATCH (a rename keeps the tokens), deleted with their tokens (audited; another clinic's is 404), and each read
// carries the latest pull (lastRun) and why a connection needs attention (lastError). Creating and deleting one
// needs a step-up (DECISIONS "Security findings of 2026-11-28").
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { holdStepUp } from '../support/step-up-claim';

const VENDORS = {
  'browser-oauth': {
    authorizeUrl: 'https://emr.example/oauth/authorize',
    tokenUrl: 'https://emr.example/oauth/token',
    fhirBaseUrl: 'https://emr.example/fhir',
  },
};

describe('EMR connections: names, delete, latest pull', () => {
  let app: TestApp;
  let admin: HttpClient;
  beforeAll(async () => {
    app = await startApp({ env: { EMR_VENDORS: JSON.stringify(VENDORS) } });
    admin = await signIn(app, 'admin@northside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });

  beforeEach(async () => {
    await holdStepUp(app, admin);
  });

  const create = (body: Record<string, unknown>) => admin.post('/api/emr-sync/connections', body);

  it('creates and deletes a connection only behind a step-up claim; without one nothing changes', async () => {
    const bare = await signIn(app, 'admin@northside.test');
    const before = await app.db.emrConnection.count();
    const refused = await bare.post('/api/emr-sync/connections', { vendor: 'browser-oauth', name: 'No step-up' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('insufficient_user_authentication');
    expect(refused.body).toEqual({
      code: 'STEP_UP_REQUIRED',
      message: 'Confirm it is you to continue',
      correlationId: expect.any(String),
    });
    expect(await app.db.emrConnection.count()).toBe(before);

    const id = (await create({ vendor: 'browser-oauth', clientId: 'north-client-step-up' })).body.connection.id;
    const keep = await bare.delete(`/api/emr-sync/connections/${id}`);
    expect(keep.status).toBe(401);
    expect(keep.body.code).toBe('STEP_UP_REQUIRED');
    expect(await app.db.emrConnection.count({ where: { id } })).toBe(1);

    await holdStepUp(app, bare);
    expect((await bare.delete(`/api/emr-sync/connections/${id}`)).status).toBe(204);
    expect(await app.db.emrConnection.count({ where: { id } })).toBe(0);
  });

  it('names a connection on create, renames it without touching its tokens, and clears the name with ""', async () => {
    const res = await create({ vendor: 'browser-oauth', clientId: 'north-client-1', name: '  Epic production ' });
    expect(res.status).toBe(201);
    expect(res.body.connection).toMatchObject({ name: 'Epic production', status: 'pending', lastRun: null });
    const id = res.body.connection.id;
    await app.db.emrConnection.update({
      where: { id },
      data: { status: 'connected', accessTokenSealed: 'sealed-token', connectedAt: new Date() },
    });

    const renamed = await admin.patch(`/api/emr-sync/connections/${id}`, { name: 'Epic (main campus)' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.connection).toMatchObject({ name: 'Epic (main campus)', status: 'connected' });
    const row = await app.db.emrConnection.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ accessTokenSealed: 'sealed-token', status: 'connected' });
    const audit = await app.db.auditLog.findFirstOrThrow({
      where: { correlationId: renamed.headers.get('x-correlation-id')! },
    });
    expect(audit).toMatchObject({
      action: 'emr.connection.update',
      detail: expect.objectContaining({ nameChanged: true }),
    });

    const cleared = await admin.patch(`/api/emr-sync/connections/${id}`, { name: '' });
    expect(cleared.body.connection.name).toBeNull();

    const tooLong = await admin.patch(`/api/emr-sync/connections/${id}`, { name: 'x'.repeat(101) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.issues).toEqual([{ path: 'body.name', message: 'Use at most 100 characters' }]);
  });

  it('shows the latest pull of each connection and why one needs authorizing again', async () => {
    const res = await create({ vendor: 'browser-oauth', clientId: 'north-client-2' });
    const id = res.body.connection.id;
    await app.db.emrConnection.update({
      where: { id },
      data: { status: 'needs-reauthorization', lastError: 'The EHR refused to renew access; connect again' },
    });
    await app.db.syncRun.create({
      data: {
        clinicId: 'clinic_north',
        connectionId: id,
        kind: 'browser-oauth',
        status: 'succeeded',
        counts: { Patient: { created: 1, updated: 0, unchanged: 0 } },
        correlationId: 'run-old',
        startedAt: new Date('2026-11-01T10:00:00Z'),
        finishedAt: new Date('2026-11-01T10:00:05Z'),
      },
    });
    const newest = await app.db.syncRun.create({
      data: {
        clinicId: 'clinic_north',
        connectionId: id,
        kind: 'browser-oauth',
        status: 'running',
        progress: { phase: 'downloading', files: 3, filesDone: 1, resources: 40 },
        correlationId: 'run-new',
        startedAt: new Date('2026-11-02T10:00:00Z'),
      },
    });
    const list = await admin.get('/api/emr-sync/connections');
    const listed = list.body.connections.find((c: { id: string }) => c.id === id);
    expect(listed).toMatchObject({
      status: 'needs-reauthorization',
      lastError: 'The EHR refused to renew access; connect again',
      lastRun: {
        id: newest.id,
        status: 'running',
        progress: { phase: 'downloading', files: 3, filesDone: 1, resources: 40 },
        counts: null,
        error: null,
        startedAt: '2026-11-02T10:00:00.000Z',
        finishedAt: null,
      },
    });
  });

  it('deletes a connection with its tokens and pending authorizations, audited; a second delete is 404', async () => {
    const res = await create({ vendor: 'browser-oauth', clientId: 'north-client-3', name: 'Old EHR' });
    const id = res.body.connection.id;
    await app.db.emrConnection.update({ where: { id }, data: { accessTokenSealed: 'sealed', status: 'connected' } });
    const admins = await app.db.user.findUniqueOrThrow({ where: { email: 'admin@northside.test' } });
    await app.db.oAuthState.create({
      data: {
        stateHash: `state-${id}`,
        clinicId: 'clinic_north',
        userId: admins.id,
        connectionId: id,
        codeVerifierSealed: 'x',
        expiresAt: new Date(Date.now() + 600_000),
      },
    });
    const deleted = await admin.delete(`/api/emr-sync/connections/${id}`);
    expect(deleted.status).toBe(204);
    expect(await app.db.emrConnection.count({ where: { id } })).toBe(0);
    expect(await app.db.oAuthState.count({ where: { connectionId: id } })).toBe(0);
    const audit = await app.db.auditLog.findFirstOrThrow({
      where: { correlationId: deleted.headers.get('x-correlation-id')! },
    });
    expect(audit).toMatchObject({
      action: 'emr.connection.delete',
      outcome: 'success',
      clinicId: 'clinic_north',
      detail: { connectionId: id, vendor: 'browser-oauth', hadTokens: true },
    });
    expect((await admin.delete(`/api/emr-sync/connections/${id}`)).status).toBe(404);
  });

  it("refuses another clinic's connection (404), a user without integrations:read (403) and no session (401)", async () => {
    const res = await create({ vendor: 'browser-oauth', clientId: 'north-client-4' });
    const id = res.body.connection.id;
    const south = await holdStepUp(app, await signIn(app, 'admin@southside.test'));
    const foreign = await south.delete(`/api/emr-sync/connections/${id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({
      code: 'NOT_FOUND',
      message: 'No such EMR connection',
      correlationId: expect.any(String),
    });
    const billing = await holdStepUp(app, await signIn(app, 'billing@northside.test'));
    expect((await billing.delete(`/api/emr-sync/connections/${id}`)).status).toBe(403);
    expect((await new HttpClient(app.url).delete(`/api/emr-sync/connections/${id}`)).status).toBe(401);
    expect(await app.db.emrConnection.count({ where: { id } })).toBe(1);
  });
});
