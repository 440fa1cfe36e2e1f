// A local fake EMR speaking the real protocols over loopback HTTP: SMART discovery, the authorization endpoint
// (302 back to redirect_uri), the token endpoint (authorization_code with PKCE; client_credentials with a
// private_key_jwt assertion verified by jose) and FHIR R4 search with `_lastUpdated`, `_count` and `next` links.
// It doubles as the partner API when given an apiKey. `Group/{id}` reads and `_id` / `patient` searches serve the
// Group-scoped pull. `GET /fhir/metadata` is public; with `bulkExport` set it declares FHIR Bulk Data export
// (system and Group level) and serves the IG's async flow: kick-off (202 + Content-Location), status polls (202
// with Retry-After and X-Progress, then the manifest), NDJSON files (bearer token required) and DELETE, each
// counted; `bulkNext` scripts the next job (polls before ready, an error file, a truncated file). Resources come
// from synthetic fixtures in fixtures/emr/ (or, for benchmarks, from `bulkExport.lines`), never from our own
// code, so a bug shared by client and fake cannot hide. Test-only.
import { createHash, createPublicKey, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';

export type FakeEmrOptions = {
  /** The registered client id (authorize, code exchange, and iss/sub of backend assertions). Default 'fake-client'. */
  clientId?: string;
  /** SPKI PEM of the backend-services client's public key; without it client_credentials is refused. */
  publicKeyPem?: string;
  /** When set, the assertion's `kid` header must equal it; otherwise any kid is accepted (but one is required). */
  keyId?: string;
  /** When set, `Authorization: Bearer {apiKey}` is accepted on FHIR search (the partner API). */
  apiKey?: string;
  /** Default page size when the request has no `_count`. Default 10. */
  pageSize?: number;
  /** Members merged over the SMART configuration document (to serve a broken or insecure one). */
  smartConfigurationOverrides?: Record<string, unknown>;
  /** The EHR's clock for checking client assertions (a test on a simulated clock moves both); default real time. */
  clock?: () => Date;
  /** Loopback port to listen on (the browser tests need a fixed one); default 0, any free port. */
  port?: number;
  /** Offer FHIR Bulk Data export in the CapabilityStatement and serve it. Without it metadata offers none. */
  bulkExport?: {
    /** Status polls answered 202 before the manifest (default 0), and the Retry-After they carry (default 1). */
    pollsBeforeReady?: number;
    retryAfter?: string;
    /** NDJSON lines of a type's file instead of the fixtures (benchmarks: a generated population). */
    lines?: (type: string) => Iterable<string>;
    /** Declare export in the CapabilityStatement this way (default 'operations'). */
    declare?: 'operations' | 'instantiates';
  };
};

/** How the next bulk export job behaves (applies to one kick-off, then resets). */
export type BulkScript = {
  pollsBeforeReady?: number;
  retryAfter?: string;
  /** Issues served as one OperationOutcome error file in the manifest. */
  errorIssues?: Array<{ severity: string; code: string; diagnostics?: string }>;
  /** This type's file ends in the middle of its last line. */
  truncate?: string;
  /** The status endpoint answers this status (e.g. 500) instead of the manifest. */
  statusFailure?: number;
  /** This type's file answers 401 once, whatever the token (an access token that expired mid-run). */
  unauthorizedOnce?: string;
  /** Lines added at the start of a type's file (e.g. a resource that is not valid FHIR). */
  prependLines?: { type: string; lines: string[] };
  /** Kick-offs answered 429 (with `Retry-After: 1`) before one is accepted. */
  kickOffTooMany?: number;
  /** Status polls answered 500 with a `transient` OperationOutcome before the job goes on. */
  transientFailures?: number;
  /**
   * Resources deleted since `_since`: with `_since`, the manifest's `deleted` array lists one NDJSON file of
   * transaction Bundles (one DELETE entry per resource, as the Bulk Data IG v2 shows); without it, none.
   */
  deleted?: Array<{ resourceType: string; id: string }>;
};

export type BulkCounters = {
  kickOffs: Array<{ path: string; query: URLSearchParams; prefer: string | undefined; accept: string | undefined }>;
  polls: number;
  /** Status polls per job id. */
  pollsByJob: Record<string, number>;
  deletes: string[];
  fileDownloads: Array<{ path: string; authorization: string | undefined }>;
  /** Job ids in kick-off order. */
  jobs: string[];
};

export type FakeEmr = {
  /** The origin, e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  fhirBaseUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** Live counters of every request received, failing and hanging ones included. byPath is keyed by pathname. */
  requests: { total: number; byPath: Record<string, number>; token: number };
  /** TCP connections accepted, whether or not a request followed (a refused TLS handshake counts too). */
  readonly connections: number;
  /** The form parameters of every token request, in order (client_assertion included, to decode in tests). */
  receivedTokenRequests: Array<Record<string, string>>;
  /** Every FHIR search request as received. */
  receivedSearches: Array<{
    path: string;
    query: URLSearchParams;
    accept: string | undefined;
    partnerAccount: string | undefined;
  }>;
  /** The Authorization header of every request to the FHIR API (searches and reads), in order. */
  receivedAuthorizations: Array<string | undefined>;
  /**
   * The next request to `path` (a pathname such as '/fhir/Patient') answers `status`, never answers ('hang'),
   * sends headers and half a body then stalls ('stall'), redirects, or sends a body of `oversizedBytes`.
   */
  failNext(path: string, failure: FakeFailure): void;
  /** Makes `next` links point at another origin (to test the client's SSRF guard); null restores. */
  setNextLinkOrigin(origin: string | null): void;
  /** Bulk Data counters (kick-offs, status polls, DELETEs, file downloads). */
  bulk: BulkCounters;
  /** Scripts the next export job. */
  bulkNext(script: BulkScript): void;
  /** Pathname of a job's NDJSON file of one type, e.g. for failNext. */
  bulkFilePath(jobId: string, type: string): string;
  /** Whether the CapabilityStatement declares export (starts as `bulkExport !== undefined`); the routes stay. */
  setExportOffered(offered: boolean): void;
  close(): Promise<void>;
};

export type FakeFailure = number | 'hang' | 'stall' | { redirectTo: string } | { oversizedBytes: number };

const FHIR_BASE_PATH = '/fhir';
const AUTHORIZE_PATH = '/oauth/authorize';
const TOKEN_PATH = '/oauth/token';
const RESOURCE_TYPES = ['Patient', 'Encounter', 'Observation', 'Condition', 'MedicationRequest', 'AllergyIntolerance'];
const CODE_TTL_MS = 60_000;
// NDJSON export files go out in writes of about this many characters (a file server's read size).
const FILE_BLOCK_CHARS = 64 * 1024;
// SMART Backend Services: assertion exp no more than 5 minutes ahead; a few seconds of skew allowed.
const MAX_ASSERTION_LIFETIME_SECONDS = 300;
const CLOCK_SKEW_SECONDS = 5;

type FixtureResource = {
  resourceType: string;
  id: string;
  meta: { lastUpdated: string };
  subject?: { reference?: string };
  patient?: { reference?: string };
};
type FixtureGroup = {
  resourceType: 'Group';
  id: string;
  member: Array<{ entity: { reference: string }; inactive?: boolean }>;
};

function loadGroups(): Map<string, FixtureGroup> {
  const groups = JSON.parse(
    readFileSync(path.join(import.meta.dirname, 'fixtures', 'emr', 'Group.json'), 'utf8'),
  ) as FixtureGroup[];
  return new Map(groups.map((g) => [g.id, g]));
}

function loadFixtures(): Map<string, FixtureResource[]> {
  const dir = path.join(import.meta.dirname, 'fixtures', 'emr');
  return new Map(
    RESOURCE_TYPES.map((type) => {
      const resources = JSON.parse(readFileSync(path.join(dir, `${type}.json`), 'utf8')) as FixtureResource[];
      // Stable order so offsets page deterministically.
      resources.sort((a, b) => a.meta.lastUpdated.localeCompare(b.meta.lastUpdated) || a.id.localeCompare(b.id));
      return [type, resources];
    }),
  );
}

type BulkJob = {
  id: string;
  types: string[];
  since: number | null;
  /** Patient ids of the Group, or null for a system export. */
  patients: Set<string> | null;
  script: BulkScript;
  transactionTime: string;
};

type PendingCode = { clientId: string; redirectUri: string; codeChallenge: string; scope: string; expiresAt: number };

export async function startFakeEmr(options: FakeEmrOptions = {}): Promise<FakeEmr> {
  const clientId = options.clientId ?? 'fake-client';
  const pageSize = options.pageSize ?? 10;
  const fixtures = loadFixtures();
  const groups = loadGroups();
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, number>(); // token -> expiresAt (ms)
  const seenJtis = new Set<string>();
  const failures = new Map<string, FakeFailure[]>();
  const hanging = new Set<http.ServerResponse>();
  let nextLinkOrigin: string | null = null;
  const bulkJobs = new Map<string, BulkJob>();
  let bulkScript: BulkScript = {};
  let exportOffered = options.bulkExport !== undefined;
  const bulk: BulkCounters = { kickOffs: [], polls: 0, pollsByJob: {}, deletes: [], fileDownloads: [], jobs: [] };

  const requests = { total: 0, byPath: {} as Record<string, number>, token: 0 };
  const receivedTokenRequests: Array<Record<string, string>> = [];
  const receivedSearches: FakeEmr['receivedSearches'] = [];
  const receivedAuthorizations: FakeEmr['receivedAuthorizations'] = [];
  let connections = 0;

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: 'server_error', error_description: String(error) });
      else res.end();
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fhirBaseUrl = `${origin}${FHIR_BASE_PATH}`;
  const authorizeUrl = `${origin}${AUTHORIZE_PATH}`;
  const tokenUrl = `${origin}${TOKEN_PATH}`;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    requests.total += 1;
    requests.byPath[url.pathname] = (requests.byPath[url.pathname] ?? 0) + 1;
    if (url.pathname === TOKEN_PATH) requests.token += 1;

    const failure = failures.get(url.pathname)?.shift();
    if (failure === 'hang') {
      hanging.add(res);
      return;
    }
    if (failure === 'stall') {
      hanging.add(res);
      res.writeHead(200, { 'content-type': 'application/fhir+json' });
      res.write('{"resourceType":"Bundle","type":"searchset","entry":[');
      return;
    }
    if (typeof failure === 'object' && 'redirectTo' in failure) {
      res.writeHead(302, { location: failure.redirectTo }).end();
      return;
    }
    if (typeof failure === 'object') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ padding: 'x'.repeat(failure.oversizedBytes) }));
      return;
    }
    if (failure !== undefined) {
      res.writeHead(failure, { 'content-type': 'text/plain' }).end('simulated failure');
      return;
    }

    if (url.pathname === `${FHIR_BASE_PATH}/.well-known/smart-configuration` && req.method === 'GET') {
      return sendJson(res, 200, smartConfiguration());
    }
    if (url.pathname === `${FHIR_BASE_PATH}/metadata` && req.method === 'GET') {
      return sendJson(res, 200, capabilityStatement(), 'application/fhir+json');
    }
    if (options.bulkExport) {
      const kickOff = /^\/fhir\/(?:Group\/([^/]+)\/)?\$export$/.exec(url.pathname);
      if (kickOff && req.method === 'GET')
        return bulkKickOff(kickOff[1] ? decodeURIComponent(kickOff[1]) : null, url, req, res);
      const status = /^\/fhir\/bulk-status\/([^/]+)$/.exec(url.pathname);
      if (status && req.method === 'GET') return bulkStatus(status[1]!, req, res);
      if (status && req.method === 'DELETE') {
        bulk.deletes.push(status[1]!);
        bulkJobs.delete(status[1]!);
        return void res.writeHead(202).end();
      }
      const file = /^\/fhir\/bulk-files\/([^/]+)\/([A-Za-z]+)\.ndjson$/.exec(url.pathname);
      if (file && req.method === 'GET') return bulkFile(file[1]!, file[2]!, req, res);
    }
    if (url.pathname === AUTHORIZE_PATH && req.method === 'GET') return authorize(url, res);
    if (url.pathname === TOKEN_PATH && req.method === 'POST') return token(req, res);
    const type = url.pathname.startsWith(`${FHIR_BASE_PATH}/`) ? url.pathname.slice(FHIR_BASE_PATH.length + 1) : null;
    const groupRead = type ? /^Group\/([^/]+)$/.exec(type) : null;
    if (groupRead && req.method === 'GET') return readGroup(decodeURIComponent(groupRead[1]!), req, res);
    if (type !== null && req.method === 'GET') return search(type, url, req, res);
    sendJson(res, 404, { error: 'not_found' });
  }

  function smartConfiguration(): Record<string, unknown> {
    // SMART App Launch v2 well-known document.
    return {
      issuer: origin,
      authorization_endpoint: authorizeUrl,
      token_endpoint: tokenUrl,
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
      grant_types_supported: ['authorization_code', 'client_credentials'],
      scopes_supported: ['launch/patient', 'patient/*.read', 'system/*.read', 'offline_access'],
      response_types_supported: ['code'],
      capabilities: [
        'launch-standalone',
        'client-public',
        'client-confidential-asymmetric',
        'context-standalone-patient',
        'permission-offline',
        'permission-patient',
        'permission-v2',
      ],
      code_challenge_methods_supported: ['S256'],
      ...options.smartConfigurationOverrides,
    };
  }

  // FHIR R4 CapabilityStatement (public); the Bulk Data operations only when bulkExport is set.
  function capabilityStatement(): Record<string, unknown> {
    const exportOps = exportOffered && options.bulkExport?.declare !== 'instantiates';
    return {
      resourceType: 'CapabilityStatement',
      status: 'active',
      kind: 'instance',
      fhirVersion: '4.0.1',
      format: ['json'],
      ...(exportOffered &&
        options.bulkExport?.declare === 'instantiates' && {
          instantiates: ['http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data'],
        }),
      rest: [
        {
          mode: 'server',
          resource: [
            ...RESOURCE_TYPES.map((type) => ({ type, interaction: [{ code: 'read' }, { code: 'search-type' }] })),
            {
              type: 'Group',
              interaction: [{ code: 'read' }],
              ...(exportOps && {
                operation: [
                  { name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export' },
                ],
              }),
            },
          ],
          ...(exportOps && {
            operation: [{ name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export' }],
          }),
        },
      ],
    };
  }

  // Bulk Data Access IG v2 kick-off: `Prefer: respond-async` required, `_type` and `_since` honoured.
  function bulkKickOff(groupId: string | null, url: URL, req: http.IncomingMessage, res: http.ServerResponse): void {
    bulk.kickOffs.push({
      path: url.pathname,
      query: new URLSearchParams(url.search),
      prefer: typeof req.headers.prefer === 'string' ? req.headers.prefer : undefined,
      accept: req.headers.accept,
    });
    if (!isAuthorized(req)) return sendOutcome(res, 401, 'login', 'bearer token required');
    if (bulkScript.kickOffTooMany) {
      bulkScript = { ...bulkScript, kickOffTooMany: bulkScript.kickOffTooMany - 1 };
      res.setHeader('retry-after', '1');
      return sendOutcome(res, 429, 'throttled', 'too many exports');
    }
    if (req.headers.prefer !== 'respond-async')
      return sendOutcome(res, 400, 'invalid', 'Prefer: respond-async required');
    let patients: Set<string> | null = null;
    if (groupId !== null) {
      const group = groups.get(groupId);
      if (!group) return sendOutcome(res, 404, 'not-found', `no Group ${groupId}`);
      patients = new Set(
        group.member
          .filter((m) => !m.inactive && m.entity.reference.startsWith('Patient/'))
          .map((m) => m.entity.reference.slice('Patient/'.length)),
      );
    }
    const types = (url.searchParams.get('_type') ?? RESOURCE_TYPES.join(',')).split(',');
    const sinceText = url.searchParams.get('_since');
    const since = sinceText ? Date.parse(sinceText) : null;
    if (since !== null && Number.isNaN(since)) return sendOutcome(res, 400, 'invalid', 'bad _since');
    const id = randomBytes(8).toString('hex');
    bulkJobs.set(id, {
      id,
      types,
      since,
      patients,
      script: bulkScript,
      transactionTime: new Date().toISOString(),
    });
    bulkScript = {};
    bulk.jobs.push(id);
    res.writeHead(202, { 'content-location': `${fhirBaseUrl}/bulk-status/${id}` }).end();
  }

  function bulkStatus(id: string, req: http.IncomingMessage, res: http.ServerResponse): void {
    bulk.polls += 1;
    bulk.pollsByJob[id] = (bulk.pollsByJob[id] ?? 0) + 1;
    if (!isAuthorized(req)) return sendOutcome(res, 401, 'login', 'bearer token required');
    const job = bulkJobs.get(id);
    if (!job) return sendOutcome(res, 404, 'not-found', 'no such job');
    const waitPolls = job.script.pollsBeforeReady ?? options.bulkExport?.pollsBeforeReady ?? 0;
    if (bulk.pollsByJob[id]! <= waitPolls) {
      const retryAfter = job.script.retryAfter ?? options.bulkExport?.retryAfter ?? '1';
      res
        .writeHead(202, { 'retry-after': retryAfter, 'x-progress': `exporting (${bulk.pollsByJob[id]}/${waitPolls})` })
        .end();
      return;
    }
    if (job.script.transientFailures) {
      job.script = { ...job.script, transientFailures: job.script.transientFailures - 1 };
      return sendOutcome(res, 500, 'transient', 'status store briefly unavailable');
    }
    if (job.script.statusFailure) return sendOutcome(res, job.script.statusFailure, 'exception', 'export failed');
    sendJson(res, 200, {
      transactionTime: job.transactionTime,
      request: `${fhirBaseUrl}/$export`,
      requiresAccessToken: true,
      output: job.types
        .filter((type) => RESOURCE_TYPES.includes(type))
        .map((type) => ({ type, url: `${origin}${bulkFilePathOf(id, type)}` })),
      error: job.script.errorIssues
        ? [{ type: 'OperationOutcome', url: `${origin}${bulkFilePathOf(id, 'OperationOutcome')}` }]
        : [],
      ...(job.since !== null &&
        job.script.deleted && { deleted: [{ type: 'Bundle', url: `${origin}${bulkFilePathOf(id, 'Deleted')}` }] }),
    });
  }

  async function bulkFile(
    id: string,
    type: string,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<void> {
    bulk.fileDownloads.push({ path: bulkFilePathOf(id, type), authorization: req.headers.authorization });
    if (!isAuthorized(req)) return sendOutcome(res, 401, 'login', 'bearer token required');
    const job = bulkJobs.get(id);
    if (!job) return sendOutcome(res, 404, 'not-found', 'no such job');
    if (job.script.unauthorizedOnce === type) {
      job.script = { ...job.script, unauthorizedOnce: undefined };
      return sendOutcome(res, 401, 'login', 'access token expired');
    }
    res.writeHead(200, { 'content-type': 'application/fhir+ndjson' });
    if (type === 'OperationOutcome') {
      for (const issue of job.script.errorIssues ?? [])
        res.write(`${JSON.stringify({ resourceType: 'OperationOutcome', issue: [issue] })}\n`);
      return void res.end();
    }
    if (type === 'Deleted') {
      for (const gone of job.script.deleted ?? []) {
        const bundle = {
          resourceType: 'Bundle',
          type: 'transaction',
          entry: [{ request: { method: 'DELETE', url: `${gone.resourceType}/${gone.id}` } }],
        };
        res.write(`${JSON.stringify(bundle)}\n`);
      }
      return void res.end();
    }
    const generated = options.bulkExport?.lines?.(type) ?? fixtureLines(job, type);
    const extra = job.script.prependLines?.type === type ? job.script.prependLines.lines : [];
    const lines = [...extra, ...generated];
    // Written in blocks, as a file server sends a file: a write per line was an HTTP chunk per line, 200,000 tiny
    // chunks for the client to take apart in a large pull (bench emr-pull), which no real export file costs it.
    let block = '';
    let last: string | null = null;
    for (const line of lines) {
      if (last !== null) block += `${last}\n`;
      if (block.length >= FILE_BLOCK_CHARS) {
        const flushed = res.write(block);
        block = '';
        if (!flushed) await new Promise((resolve) => res.once('drain', resolve));
      }
      last = line;
    }
    if (last === null) return void res.end();
    // A truncated file: the last line cut in the middle (the connection still closes cleanly).
    res.end(block + (job.script.truncate === type ? last.slice(0, Math.floor(last.length / 2)) : `${last}\n`));
  }

  function* fixtureLines(job: BulkJob, type: string): Iterable<string> {
    for (const resource of fixtures.get(type) ?? []) {
      if (job.since !== null && Date.parse(resource.meta.lastUpdated) < job.since) continue;
      if (job.patients) {
        const patient =
          type === 'Patient'
            ? resource.id
            : (resource.subject?.reference ?? resource.patient?.reference ?? '').slice(8);
        if (!job.patients.has(patient)) continue;
      }
      yield JSON.stringify(resource);
    }
  }

  // RFC 6749 section 4.1.1/4.1.2 with SMART App Launch v2 section 2.1.5 (aud, PKCE S256 mandatory).
  function authorize(url: URL, res: http.ServerResponse): void {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri');
    // An unknown client or a bad redirect_uri must not redirect (RFC 6749 section 4.1.2.1).
    if (q.get('client_id') !== clientId) return void sendText(res, 400, 'unknown client_id');
    if (!redirectUri || !isHttpUrl(redirectUri)) return void sendText(res, 400, 'invalid redirect_uri');

    const state = q.get('state');
    const redirectError = (error: string) => {
      const target = new URL(redirectUri);
      target.searchParams.set('error', error);
      if (state) target.searchParams.set('state', state);
      res.writeHead(302, { location: target.href }).end();
    };
    if (q.get('response_type') !== 'code') return redirectError('unsupported_response_type');
    if (!state) return redirectError('invalid_request');
    const codeChallenge = q.get('code_challenge');
    if (!codeChallenge || !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge) || q.get('code_challenge_method') !== 'S256') {
      return redirectError('invalid_request');
    }
    if (q.get('aud') !== fhirBaseUrl) return redirectError('invalid_request');
    const scope = q.get('scope');
    if (!scope) return redirectError('invalid_scope');

    const code = randomBytes(16).toString('base64url');
    codes.set(code, { clientId, redirectUri, codeChallenge, scope, expiresAt: Date.now() + CODE_TTL_MS });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', state);
    res.writeHead(302, { location: target.href }).end();
  }

  async function token(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return oauthError(res, 400, 'invalid_request', 'form body required');
    }
    const params = new URLSearchParams(await readBody(req));
    const form: Record<string, string> = {};
    for (const [name, value] of params) {
      // RFC 6749 section 3.2: parameters must not repeat.
      if (name in form) return oauthError(res, 400, 'invalid_request', `repeated ${name}`);
      form[name] = value;
    }
    receivedTokenRequests.push(form);

    if (form.grant_type === 'authorization_code') return authorizationCodeGrant(form, res);
    if (form.grant_type === 'client_credentials') return clientCredentialsGrant(form, res);
    return oauthError(res, 400, 'unsupported_grant_type');
  }

  function authorizationCodeGrant(form: Record<string, string>, res: http.ServerResponse): void {
    const pending = form.code ? codes.get(form.code) : undefined;
    // Single use: the code is gone after any attempt (RFC 6749 section 4.1.2), good or bad.
    if (form.code) codes.delete(form.code);
    if (!pending || pending.expiresAt < Date.now()) return oauthError(res, 400, 'invalid_grant', 'unknown code');
    if (form.client_id !== pending.clientId) return oauthError(res, 400, 'invalid_grant', 'client mismatch');
    if (form.redirect_uri !== pending.redirectUri)
      return oauthError(res, 400, 'invalid_grant', 'redirect_uri mismatch');
    const verifier = form.code_verifier ?? '';
    // RFC 7636 section 4.6: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge.
    const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
    if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier) || computed !== pending.codeChallenge) {
      return oauthError(res, 400, 'invalid_grant', 'PKCE verification failed');
    }
    const accessToken = issueAccessToken(3600);
    sendJson(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 3600,
      scope: pending.scope,
      refresh_token: randomBytes(24).toString('base64url'),
      patient: 'pat-1',
    });
  }

  async function clientCredentialsGrant(form: Record<string, string>, res: http.ServerResponse): Promise<void> {
    if (
      form.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' ||
      !form.client_assertion
    ) {
      return oauthError(res, 400, 'invalid_request', 'client assertion required');
    }
    if (!form.scope) return oauthError(res, 400, 'invalid_scope');
    if (!options.publicKeyPem) return oauthError(res, 401, 'invalid_client', 'no key registered');
    try {
      const header = decodeProtectedHeader(form.client_assertion);
      if (typeof header.kid !== 'string' || (options.keyId !== undefined && header.kid !== options.keyId)) {
        return oauthError(res, 401, 'invalid_client', 'unknown kid');
      }
      const jwk = createPublicKey(options.publicKeyPem).export({ format: 'jwk' }) as JWK;
      const jwks = createLocalJWKSet({ keys: [{ ...jwk, kid: header.kid, use: 'sig' }] });
      const { payload } = await jwtVerify(form.client_assertion, jwks, {
        algorithms: ['RS384', 'ES384'],
        issuer: clientId,
        subject: clientId,
        audience: tokenUrl,
        requiredClaims: ['iss', 'sub', 'aud', 'exp', 'jti'],
        clockTolerance: CLOCK_SKEW_SECONDS,
        ...(options.clock && { currentDate: options.clock() }),
      });
      const nowSeconds = Math.floor((options.clock?.() ?? new Date()).getTime() / 1000);
      if ((payload.exp ?? 0) > nowSeconds + MAX_ASSERTION_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) {
        return oauthError(res, 401, 'invalid_client', 'exp too far in the future');
      }
      const jti = payload.jti ?? '';
      if (seenJtis.has(jti)) return oauthError(res, 401, 'invalid_client', 'jti replayed');
      seenJtis.add(jti);
    } catch (error) {
      return oauthError(res, 401, 'invalid_client', `assertion rejected: ${(error as Error).message}`);
    }
    sendJson(res, 200, {
      access_token: issueAccessToken(300),
      token_type: 'bearer',
      expires_in: 300,
      scope: form.scope,
    });
  }

  function issueAccessToken(lifetimeSeconds: number): string {
    const accessToken = randomBytes(24).toString('base64url');
    accessTokens.set(accessToken, Date.now() + lifetimeSeconds * 1000);
    return accessToken;
  }

  function isAuthorized(req: http.IncomingMessage): boolean {
    const match = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '');
    if (!match?.[1]) return false;
    if (options.apiKey !== undefined && match[1] === options.apiKey) return true;
    const expiresAt = accessTokens.get(match[1]);
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  // FHIR R4 read (http.html#read) of a Group: the members a Group-scoped pull searches by.
  function readGroup(id: string, req: http.IncomingMessage, res: http.ServerResponse): void {
    receivedAuthorizations.push(req.headers.authorization);
    if (!isAuthorized(req)) return sendOutcome(res, 401, 'login', 'bearer token required');
    const group = groups.get(id);
    if (!group) return sendOutcome(res, 404, 'not-found', `no Group ${id}`);
    sendJson(res, 200, group, 'application/fhir+json');
  }

  // FHIR R4 search (http.html#search, search.html#date for prefixes); paging by an opaque-to-clients _offset.
  // `_id` and `patient` take comma-separated values (OR), as FHIR search does.
  function search(type: string, url: URL, req: http.IncomingMessage, res: http.ServerResponse): void {
    const partnerAccount = req.headers['x-partner-account'];
    receivedSearches.push({
      path: url.pathname,
      query: new URLSearchParams(url.search),
      accept: req.headers.accept,
      partnerAccount: typeof partnerAccount === 'string' ? partnerAccount : undefined,
    });
    receivedAuthorizations.push(req.headers.authorization);
    if (!isAuthorized(req)) {
      res.setHeader('www-authenticate', 'Bearer');
      return sendOutcome(res, 401, 'login', 'bearer token required');
    }
    const resources = fixtures.get(type);
    if (!resources) return sendOutcome(res, 404, 'not-supported', `unknown resource type ${type}`);

    const filters: Array<(instant: number) => boolean> = [];
    for (const value of url.searchParams.getAll('_lastUpdated')) {
      const match = /^(ge|gt|le|lt|eq)?(.+)$/.exec(value);
      const bound = match ? Date.parse(match[2] ?? '') : NaN;
      if (!match || Number.isNaN(bound)) return sendOutcome(res, 400, 'invalid', 'bad _lastUpdated');
      const prefix = match[1] ?? 'eq';
      filters.push((t) =>
        prefix === 'ge'
          ? t >= bound
          : prefix === 'gt'
            ? t > bound
            : prefix === 'le'
              ? t <= bound
              : prefix === 'lt'
                ? t < bound
                : t === bound,
      );
    }
    const count = Number(url.searchParams.get('_count') ?? pageSize);
    const offset = Number(url.searchParams.get('_offset') ?? 0);
    if (!Number.isInteger(count) || count < 1 || !Number.isInteger(offset) || offset < 0) {
      return sendOutcome(res, 400, 'invalid', 'bad _count or _offset');
    }

    const ids = url.searchParams.get('_id')?.split(',');
    const patients = url.searchParams
      .get('patient')
      ?.split(',')
      .map((id) => `Patient/${id}`);
    const matches = resources.filter(
      (r) =>
        filters.every((f) => f(Date.parse(r.meta.lastUpdated))) &&
        (!ids || ids.includes(r.id)) &&
        (!patients || patients.includes(r.subject?.reference ?? r.patient?.reference ?? '')),
    );
    const page = matches.slice(offset, offset + count);
    const pageLink = (pageOffset: number) => {
      const query = new URLSearchParams(url.search);
      query.set('_offset', String(pageOffset));
      return `${nextLinkOrigin ?? origin}${url.pathname}?${query.toString()}`;
    };
    const link = [{ relation: 'self', url: `${origin}${url.pathname}${url.search}` }];
    if (offset + count < matches.length) link.push({ relation: 'next', url: pageLink(offset + count) });
    sendJson(
      res,
      200,
      {
        resourceType: 'Bundle',
        type: 'searchset',
        total: matches.length,
        link,
        entry: page.map((resource) => ({
          fullUrl: `${fhirBaseUrl}/${type}/${resource.id}`,
          resource,
          search: { mode: 'match' },
        })),
      },
      'application/fhir+json',
    );
  }

  return {
    baseUrl: origin,
    fhirBaseUrl,
    authorizeUrl,
    tokenUrl,
    requests,
    get connections() {
      return connections;
    },
    receivedTokenRequests,
    receivedSearches,
    receivedAuthorizations,
    failNext(failPath, status) {
      const queue = failures.get(failPath) ?? [];
      queue.push(status);
      failures.set(failPath, queue);
    },
    setNextLinkOrigin(value) {
      nextLinkOrigin = value;
    },
    bulk,
    bulkNext(script) {
      bulkScript = script;
    },
    bulkFilePath: bulkFilePathOf,
    setExportOffered(offered) {
      exportOffered = offered;
    },
    close() {
      for (const res of hanging) res.destroy();
      hanging.clear();
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

function bulkFilePathOf(jobId: string, type: string): string {
  return `${FHIR_BASE_PATH}/bulk-files/${jobId}/${type}.ndjson`;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.hash;
  } catch {
    return false;
  }
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 1_000_000) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

function sendText(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
}

function oauthError(res: http.ServerResponse, status: number, error: string, description?: string): void {
  sendJson(res, status, { error, ...(description && { error_description: description }) });
}

function sendOutcome(res: http.ServerResponse, status: number, code: string, diagnostics: string): void {
  sendJson(
    res,
    status,
    { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, diagnostics }] },
    'application/fhir+json',
  );
}
