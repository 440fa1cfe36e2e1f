import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '@/test/fakes/scripted-server';
import { rejection } from '@/test/support/rejection';
import { createEgress, isAddressAllowed, neverReachedServer, type EgressPolicy, type EgressRequest } from './egress';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
async function server(): Promise<ScriptedServer> {
  const s = await startScriptedServer();
  servers.push(s);
  return s;
}

const NEUTRAL = { code: 'TRANSPORT_FAILED', message: 'The EMR could not be reached; try again later' };
const sandbox: EgressPolicy = { mode: 'sandbox', allowedOrigins: [] };
const production: EgressPolicy = { mode: 'production', allowedOrigins: [] };
const call = (url: string, extra: Partial<EgressRequest> = {}): EgressRequest => ({
  url,
  target: 'tenant',
  purpose: 'emr',
  maxBodyBytes: 64 * 1024,
  timeoutMs: 2_000,
  ...extra,
});

describe('egress: what a tenant URL may reach', () => {
  it('refuses loopback in production, over http or https, without opening a connection', async () => {
    const s = await server();
    for (const url of [
      `${s.origin}/x`,
      `https://127.0.0.1:${s.port}/x`,
      `https://[::ffff:127.0.0.1]:${s.port}/x`,
      `https://localhost:${s.port}/x`,
    ]) {
      const error = await rejection(createEgress(production).request(call(url)));
      expect({ url, code: error.code, message: error.message }).toEqual({ url, ...NEUTRAL });
    }
    expect(s.connections).toBe(0);
  });

  it('lets production reach a private address only when the operator listed its https origin', async () => {
    const s = await server();
    const origin = `https://127.0.0.1:${s.port}`;
    const listed = createEgress({ mode: 'production', allowedOrigins: [origin] });
    // The fake speaks http, so the TLS handshake fails: but the connection was allowed and made.
    const error = await rejection(listed.request(call(`${origin}/x`)));
    expect(error.cause).toMatchObject({ purpose: 'emr', reason: 'connect', url: `${origin}/x` });
    expect(s.connections).toBe(1);
    // http stays refused in production, listed or not.
    const http = await rejection(
      createEgress({ mode: 'production', allowedOrigins: [s.origin] }).request(call(`${s.origin}/x`)),
    );
    expect(http.cause).toMatchObject({ reason: 'scheme-refused' });
    expect(s.connections).toBe(1);
  });

  it("opens a listed origin's private address to EHR calls only: a webhook to it is refused, with no connection", async () => {
    const s = await server();
    const origin = `https://127.0.0.1:${s.port}`;
    const listed = createEgress({ mode: 'production', allowedOrigins: [origin] });
    for (const purpose of ['webhook', 'cds-client', 'partner'] as const) {
      const error = await rejection(listed.request({ ...call(`${origin}/hook`), purpose }));
      expect(error.cause).toMatchObject({ purpose, reason: 'address-refused', addressClass: 'loopback' });
    }
    expect(s.connections).toBe(0);
  });

  it('refuses a host whose name resolves to a private or metadata address, or to any mix with one', async () => {
    const answers: Record<string, Array<{ address: string; family: 4 | 6 }>> = {
      'internal.example': [{ address: '10.0.0.5', family: 4 }],
      'metadata.example': [{ address: '169.254.169.254', family: 4 }],
      'mixed.example': [
        { address: '93.184.216.34', family: 4 },
        { address: 'fd00::5', family: 6 },
      ],
      'mapped.example': [{ address: '::ffff:192.168.0.1', family: 6 }],
    };
    const lookups: string[] = [];
    const egress = createEgress({ ...production, resolve: async (host) => (lookups.push(host), answers[host] ?? []) });
    for (const [host, [expected]] of [
      ['internal.example', ['private']],
      ['metadata.example', ['metadata']],
      ['mixed.example', ['ula']],
      ['mapped.example', ['private']],
    ] as const) {
      const error = await rejection(egress.request(call(`https://${host}/fhir/.well-known/smart-configuration`)));
      expect({ host, message: error.message, cause: error.cause }).toEqual({
        host,
        message: NEUTRAL.message,
        cause: {
          purpose: 'emr',
          reason: 'address-refused',
          url: `https://${host}/fhir/.well-known/smart-configuration`,
          address: expect.any(String),
          addressClass: expected,
        },
      });
    }
    expect(lookups).toEqual(['internal.example', 'metadata.example', 'mixed.example', 'mapped.example']);
  });

  it('never reaches the metadata address, even for a listed origin', async () => {
    const egress = createEgress({
      mode: 'production',
      allowedOrigins: ['https://ehr.example'],
      resolve: async () => [{ address: '169.254.169.254', family: 4 }],
    });
    expect((await rejection(egress.request(call('https://ehr.example/x')))).cause).toMatchObject({
      reason: 'address-refused',
      addressClass: 'metadata',
    });
    expect(isAddressAllowed('private', { isAllowedOrigin: true, mode: 'production' })).toBe(true);
    expect(isAddressAllowed('private', { isAllowedOrigin: false, mode: 'sandbox' })).toBe(false);
    expect(isAddressAllowed('loopback', { isAllowedOrigin: false, mode: 'sandbox' })).toBe(true);
    expect(isAddressAllowed('loopback', { isAllowedOrigin: false, mode: 'production' })).toBe(false);
  });

  it('connects to the address it checked: the name is resolved once, by the policy, not again by the socket', async () => {
    const s = await server();
    s.answer('/x', { status: 200, body: '{"ok":true}' });
    let lookups = 0;
    // A name no real resolver knows: only the checked answer can have been used to connect.
    const egress = createEgress({
      ...sandbox,
      resolve: async () => (lookups++, [{ address: '127.0.0.1', family: 4 }]),
    });
    const res = await egress.request(call(`http://ehr.rebind.invalid:${s.port}/x`));
    expect([res.status, res.text(), lookups]).toEqual([200, '{"ok":true}', 1]);
    expect(s.requests[0]!.headers.host).toBe(`ehr.rebind.invalid:${s.port}`);
  });

  it('refuses http to a public address even in sandbox', async () => {
    const egress = createEgress({ ...sandbox, resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
    expect((await rejection(egress.request(call('http://ehr.example/x')))).cause).toMatchObject({
      reason: 'scheme-refused',
    });
  });

  it('lets an operator URL reach a private address (the operator chose it)', async () => {
    const s = await server();
    s.answer('/fhir', { status: 200, body: 'ok' });
    const res = await createEgress(production).request(call(`${s.origin}/fhir`, { target: 'operator' }));
    expect(res.text()).toBe('ok');
  });
});

describe('egress: every call', () => {
  it('does not follow a redirect: the target of the 302 is never contacted', async () => {
    const [first, second] = [await server(), await server()];
    first.answer('/x', { status: 302, headers: { location: `${second.origin}/stolen` } });
    for (const target of ['tenant', 'operator'] as const) {
      const error = await rejection(createEgress(sandbox).request(call(`${first.origin}/x`, { target })));
      expect({ code: error.code, message: error.message, cause: error.cause }).toEqual({
        ...NEUTRAL,
        cause: { purpose: 'emr', reason: 'redirect', url: `${first.origin}/x`, status: 302 },
      });
    }
    expect(second.connections).toBe(0);
  });

  it('refuses a body over the cap, declared or streamed', async () => {
    const s = await server();
    s.answer('/declared', { status: 200, body: 'x'.repeat(2048) });
    s.answer('/streamed', { streamBytes: 4 * 1024 * 1024 });
    const egress = createEgress(sandbox);
    const declared = await rejection(egress.request(call(`${s.origin}/declared`, { maxBodyBytes: 1024 })));
    expect(declared.cause).toMatchObject({ reason: 'too-large', maxBodyBytes: 1024 });
    const started = Date.now();
    const streamed = await rejection(egress.request(call(`${s.origin}/streamed`, { maxBodyBytes: 64 * 1024 })));
    expect(streamed.cause).toMatchObject({ reason: 'too-large', maxBodyBytes: 64 * 1024 });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('times out a server that sends headers and then stalls mid-body, within one budget', async () => {
    const s = await server();
    s.answer('/stall', { stallAfter: '{"resourceType":"Bun' });
    s.answer('/hang', { hang: true });
    const egress = createEgress(sandbox);
    for (const path of ['/stall', '/hang']) {
      const started = Date.now();
      const error = await rejection(egress.request(call(`${s.origin}${path}`, { timeoutMs: 300 })));
      expect({ path, message: error.message, reason: (error.cause as { reason: string }).reason }).toEqual({
        path,
        message: NEUTRAL.message,
        reason: 'timeout',
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(280);
      expect(Date.now() - started).toBeLessThan(1_500);
    }
  });

  it('returns a non-2xx answer to the caller, and its message never carries upstream text', async () => {
    const s = await server();
    s.answer('/token', { status: 400, body: '{"error":"invalid_grant","error_description":"secret internals"}' });
    const res = await createEgress(sandbox).request(
      call(`${s.origin}/token`, {
        method: 'POST',
        body: 'a=b',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text())).toMatchObject({ error: 'invalid_grant' });
    expect(s.requests[0]).toMatchObject({ method: 'POST', body: 'a=b', headers: { 'content-length': '3' } });
  });

  it('says the same neutral sentence for a closed port and logs its reason', async () => {
    const s = await server();
    const port = s.port;
    await s.close();
    servers.splice(0);
    const error = await rejection(createEgress(sandbox).request(call(`http://127.0.0.1:${port}/x`)));
    expect(error.message).toBe(NEUTRAL.message);
    expect(error.cause).toMatchObject({ reason: 'connect', error: { code: 'ECONNREFUSED' } });
  });

  it("closes an idle keep-alive socket before the server's announced Keep-Alive timeout, so no call races its close", async () => {
    const s = await server();
    s.answer('/x', { status: 200, headers: { 'keep-alive': 'timeout=2' }, body: '{}' });
    const egress = createEgress(sandbox);
    await egress.request(call(`${s.origin}/x`));
    await egress.request(call(`${s.origin}/x`));
    expect(s.connections).toBe(1); // reused while fresh
    await new Promise((resolve) => setTimeout(resolve, 1_300)); // past the hint less a second, short of the server's close
    await egress.request(call(`${s.origin}/x`));
    expect(s.connections).toBe(2);
  });

  it('refuses credentials in the URL and schemes other than http(s)', async () => {
    for (const url of ['https://user:pw@ehr.example/x', 'ftp://ehr.example/x', 'file:///etc/passwd', 'not a url']) {
      const error = await rejection(createEgress(sandbox).request(call(url)));
      expect(error.message).toBe(NEUTRAL.message);
    }
  });
});

describe('egress: whether a failed request reached the server', () => {
  const post = (url: string, timeoutMs = 2_000) =>
    createEgress(sandbox).request(call(url, { method: 'POST', body: 'ISA*00*...', target: 'operator', timeoutMs }));

  it('says a refused connection never did, and a request that was answered late, or not at all, may have', async () => {
    const s = await server();
    const port = s.port;
    await s.close();
    servers.length = 0;
    const refused = await rejection(post(`http://127.0.0.1:${port}/x`));
    expect(refused.cause).toMatchObject({ reason: 'connect', requestSent: false });
    expect(neverReachedServer(refused)).toBe(true);

    const open = await server();
    open.answer('/held', { hang: true });
    const held = await rejection(post(`${open.origin}/held`, 300));
    expect(held.cause).toMatchObject({ reason: 'timeout', requestSent: true });
    expect(neverReachedServer(held)).toBe(false);
    expect(open.requests.map((r) => r.body)).toEqual(['ISA*00*...']);

    const listed = await rejection(
      createEgress(production).request(call('http://127.0.0.1:1/x', { method: 'POST', body: 'x' })),
    );
    expect(listed.cause).toMatchObject({ reason: 'scheme-refused' });
    expect(neverReachedServer(listed)).toBe(true);
    expect(neverReachedServer(new Error('not an egress failure'))).toBe(false);
  });
});
