// Property-based fuzzing of every registered endpoint (generated from the registry, so a route added later is
// fuzzed too): wrong types, missing and extra fields, huge strings, deep JSON, invalid UTF-8, wrong content
// types and invalid JSON, sent as a fully privileged, stepped-up user (and signed, for webhooks) so the input
// reaches validation. Over 10,000 requests: never a 500, every error body is { code, message, correlationId }
// (and matches the OpenAPI document, checked by the test client), and rejected requests write nothing. Besides the
// random sample, every route with a body or a path parameter gets the inputs the 2026-11-28 reviews found giving
// 500 (issue #30 item 1, issue #31 item 4): a malformed percent-encoding in each path segment, a lone surrogate and
// a NUL in each body field (as a string, in an array, as a key), and an 835 upload holding NUL or other controls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pLimit from 'p-limit';
import { z } from 'zod';
import { ENDPOINTS } from '@/lib/api/registry';
import type { Endpoint } from '@/lib/endpoint';
import { signBody } from '@/lib/webhooks/verify-signature';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { stepUpHeader } from '../support/step-up-claim';

const TOTAL_REQUESTS = 10_200;
// Tables a rejected request may legitimately write: the audit trail of refused attempts, and the counters
// that make refusals rate-limited.
const MAY_CHANGE = new Set(['AuditLog', 'RateLimitCounter', 'PhiAccessLog']);
const TYPED_5XX = new Set(['NOT_CONFIGURED', 'DEPENDENCY_UNAVAILABLE']);

type FuzzRequest = { path: string; query: string; contentType?: string; body?: Uint8Array | string; note: string };

function propertyNames(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  try {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, unknown>;
      anyOf?: { properties?: Record<string, unknown> }[];
    };
    const fromUnion = (json.anyOf ?? []).flatMap((s) => Object.keys(s.properties ?? {}));
    return [...new Set([...Object.keys(json.properties ?? {}), ...fromUnion])];
  } catch {
    return [];
  }
}

const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'null',
    'true',
    '../../etc/passwd',
    '\'; DROP TABLE "User";--',
    '<script>',
    '\u0000',
    '\uD800',
    'x'.repeat(10_000),
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);

function bodyArbitrary(
  names: string[],
): fc.Arbitrary<{ body: Uint8Array | string; contentType: string; note: string }> {
  const asJson = (note: string) => (value: unknown) => ({
    body: JSON.stringify(value),
    contentType: 'application/json',
    note,
  });
  const keys = names.length ? fc.constantFrom(...names) : fc.string({ maxLength: 12 });
  return fc.oneof(
    // Known fields with wrong types, some missing, some extra.
    fc.dictionary(fc.oneof(keys, fc.string({ maxLength: 12 })), junk, { maxKeys: 8 }).map(asJson('wrong types')),
    fc.jsonValue({ maxDepth: 4 }).map(asJson('any JSON')),
    fc.constantFrom(0, 1, 5_000).map((depth) => ({
      body: '['.repeat(depth) + ']'.repeat(depth),
      contentType: 'application/json',
      note: `deep JSON ${depth}`,
    })),
    fc.constant({
      body: JSON.stringify(Object.fromEntries(names.map((n) => [n, 'x'.repeat(200_000)]))),
      contentType: 'application/json',
      note: 'huge strings',
    }),
    fc.constant({
      body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x80, 0x22, 0x7d]),
      contentType: 'application/json',
      note: 'invalid UTF-8',
    }),
    fc.string({ maxLength: 60 }).map((s) => ({ body: `{${s}`, contentType: 'application/json', note: 'invalid JSON' })),
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
      )
      .map((contentType) => ({ body: 'a=1&b=2', contentType, note: `content type ${contentType}` })),
  );
}

function requestArbitrary(e: Endpoint): fc.Arbitrary<FuzzRequest> {
  const segment = fc.oneof(
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.constantFrom('bill_n_001', 'pat_n_001', 'pool_n_001', '..', '%00', 'x'.repeat(300)),
  );
  const params = (e.path.match(/\{[^}]+\}/g) ?? []).length;
  const path = fc.array(segment, { minLength: params, maxLength: params }).map((values) => {
    let i = 0;
    return e.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(values[i++] || 'x'));
  });
  const queryKeys = propertyNames(e.query);
  const query = fc
    .dictionary(
      fc.oneof(queryKeys.length ? fc.constantFrom(...queryKeys) : fc.constant('q'), fc.string({ maxLength: 8 })),
      fc.string({ maxLength: 30 }),
      { maxKeys: 4 },
    )
    .map((q) => new URLSearchParams(q).toString());
  const canHaveBody = e.method !== 'GET' && e.method !== 'DELETE';
  const body = canHaveBody
    ? fc.option(bodyArbitrary(propertyNames(e.body)), { nil: undefined, freq: 8 })
    : fc.constant(undefined);
  return fc.record({ path, query, body }).map(({ path: p, query: q, body: b }) => ({
    path: p,
    query: q,
    body: b?.body,
    contentType: b?.contentType,
    note: b?.note ?? 'no body',
  }));
}

const MALFORMED_SEGMENTS = ['%ff', '%', '%E0%A4', '%ED%A0%80', 'a%zz', '%00'];
// JSON.stringify writes a lone surrogate as the escape `\ud800`, exactly as the reviewers sent it.
const UNSTORABLE_TEXT = [
  { text: '\uD800', note: 'lone surrogate' },
  { text: 'a\uDC00b', note: 'lone low surrogate' },
  { text: 'a\u0000b', note: 'NUL' },
];
// A well-formed 835 envelope start, so the control character is what the upload reader meets.
const ISA =
  'ISA*00*          *00*          *ZZ*SANDBOXPAYER   *ZZ*NORTHSIDE      *261128*1200*^*00501*000000001*0*T*:~';

/** The known 500 inputs, aimed at every route that has a body or a path parameter (never left to sampling). */
function knownBadInputs(e: Endpoint): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  const params = (e.path.match(/\{[^}]+\}/g) ?? []).length;
  for (let target = 0; target < params; target++) {
    for (const segment of MALFORMED_SEGMENTS) {
      let i = 0;
      const path = e.path.replace(/\{[^}]+\}/g, () => (i++ === target ? segment : 'x'));
      out.push({ path, query: '', note: `path segment ${segment}` });
    }
  }
  if (e.method === 'GET' || e.method === 'DELETE') return out;
  const names = propertyNames(e.body);
  const json = (value: unknown, note: string): FuzzRequest => ({
    path: e.path.replace(/\{[^}]+\}/g, 'x'),
    query: '',
    contentType: 'application/json',
    body: JSON.stringify(value),
    note,
  });
  for (const name of names.length ? names : ['value']) {
    for (const { text, note } of UNSTORABLE_TEXT) {
      out.push(json({ [name]: text }, `${note} in ${name}`));
      out.push(json({ [name]: [text] }, `${note} in ${name}[0]`));
      out.push(json({ [name]: { [text]: 'x' } }, `${note} as a key in ${name}`));
    }
  }
  for (const { text, note } of [...UNSTORABLE_TEXT, { text: '\u0007\u001b', note: 'BEL and ESC' }]) {
    out.push(json({ x12: `${ISA}GS*HP${text}*SANDBOXPAYER~` }, `835 holding ${note}`));
    const file = `${ISA}GS*HP${text}*SANDBOXPAYER~`;
    out.push({
      ...json(null, `835 file holding ${note}`),
      contentType: 'multipart/form-data; boundary=fuzz',
      body: `--fuzz\r\nContent-Disposition: form-data; name="file"; filename="835.txt"\r\n\r\n${file}\r\n--fuzz--\r\n`,
    });
  }
  return out;
}

/** Every table's row count, read in one statement (a snapshot is taken around each endpoint's requests). */
async function tableCounter(app: TestApp): Promise<() => Promise<Record<string, number>>> {
  const tables = await app.db.$queryRaw<
    { name: string }[]
  >`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`;
  const sql = `SELECT ${tables.map(({ name }) => `(SELECT count(*)::int FROM "${name}") AS "${name}"`).join(', ')}`;
  return async () => (await app.db.$queryRawUnsafe<Record<string, number>[]>(sql))[0]!;
}

const changedTables = (before: Record<string, number>, after: Record<string, number>) =>
  Object.keys(after).filter((t) => after[t] !== before[t] && !MAY_CHANGE.has(t));

describe('fuzzing every endpoint', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it(`survives ${TOTAL_REQUESTS} malformed requests: no 500, typed error bodies, nothing written by rejected requests`, async () => {
    const admin = await signIn(app, 'admin@northside.test');
    const stepUp = await stepUpHeader(app, 'admin@northside.test');
    const perEndpoint = Math.ceil(TOTAL_REQUESTS / ENDPOINTS.length);
    const limit = pLimit(8);
    const failures: string[] = [];
    let delivery = 0;

    async function send(e: Endpoint, r: FuzzRequest): Promise<number> {
      const headers: Record<string, string> = { ...stepUp };
      if (r.contentType) headers['content-type'] = r.contentType;
      if (e.auth === 'cron') headers.authorization = `Bearer ${TEST_SECRETS.CRON_SECRET}`;
      if (typeof e.auth === 'object') {
        const raw = typeof r.body === 'string' ? new TextEncoder().encode(r.body) : (r.body ?? new Uint8Array());
        const secret = TEST_SECRETS[`WEBHOOK_SECRET_${e.auth.signature.toUpperCase()}` as keyof typeof TEST_SECRETS];
        headers['x-svc-signature'] = `sha256=${signBody(raw, secret)}`;
        headers['x-svc-delivery'] = `fuzz-${delivery++}`;
      }
      const client = e.auth === 'session' ? admin : new HttpClient(app.url);
      const url = r.query ? `${r.path}?${r.query}` : r.path;
      const where = `${e.method} ${url.slice(0, 120)} [${r.note}]`;
      try {
        const attempt = () => client.request(e.method, url, { body: r.body as BodyInit | undefined, headers });
        // A pooled keep-alive socket the server closed as idle (its 5 s timeout, e.g. the start-up health poll's)
        // fails before any request reaches it: that is the transport, not an answer, so it is sent once more. A
        // server that crashed or reset a connection mid-answer fails the retry too.
        const res = await attempt().catch((error: { cause?: { code?: string } }) => {
          if (error.cause?.code === 'UND_ERR_SOCKET') return attempt();
          throw error;
        });
        if (res.status >= 500 && !TYPED_5XX.has(res.body?.code))
          failures.push(`${where} → ${res.status} ${res.text.slice(0, 200)}`);
        const typed =
          typeof res.body?.code === 'string' &&
          typeof res.body?.message === 'string' &&
          typeof res.body?.correlationId === 'string';
        // FHIR routes answer errors as OperationOutcome, OAuth token endpoints as RFC 6749 { error }: the client's
        // contract check validates both against the OpenAPI document.
        const ownFormat =
          e.errorFormat === 'oauth'
            ? typeof res.body?.error === 'string'
            : res.body?.resourceType === 'OperationOutcome';
        if (res.status >= 400 && !typed && !ownFormat)
          failures.push(`${where} → ${res.status} untyped error ${res.text.slice(0, 200)}`);
        return res.status;
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        failures.push(`${where} threw ${(error as Error).message.slice(0, 300)} (${cause?.code ?? cause?.message})`);
        return 0;
      }
    }

    // Each endpoint's requests between two snapshots of every table. A rejected request must write nothing; a fuzzed
    // request that happened to be valid may, so where one was accepted and a table changed, the endpoint's rejected
    // requests are sent again between two more snapshots (most endpoints accept none, and need no second round).
    const tableCounts = await tableCounter(app);
    const statuses: number[] = [];
    const writeStatuses: number[] = [];
    const writtenByRejected: string[] = [];
    for (const e of ENDPOINTS) {
      const batch = [...fc.sample(requestArbitrary(e), { numRuns: perEndpoint, seed: 20261122 }), ...knownBadInputs(e)];
      const before = await tableCounts();
      const answered = await Promise.all(batch.map((r) => limit(() => send(e, r))));
      let changed = changedTables(before, await tableCounts());
      if (changed.length > 0 && answered.some((status) => status < 400)) {
        const rejected = batch.filter((_, i) => answered[i]! >= 400);
        const again = await tableCounts();
        await Promise.all(rejected.map((r) => limit(() => send(e, r))));
        changed = changedTables(again, await tableCounts());
      }
      if (changed.length > 0) writtenByRejected.push(`${e.method} ${e.path} wrote ${changed.join(', ')}`);
      statuses.push(...answered);
      if (e.method !== 'GET') writeStatuses.push(...answered);
    }
    expect(statuses.length).toBeGreaterThanOrEqual(TOTAL_REQUESTS);
    expect(failures.slice(0, 20)).toEqual([]);
    expect(writtenByRejected).toEqual([]);
    // Reads may accept random query keys; writes must refuse nearly all fuzzed input, or it is not reaching validation.
    expect(writeStatuses.filter((status) => status >= 400).length).toBeGreaterThan(writeStatuses.length * 0.9);
  }, 600_000);
});

// Claim create and edit at and past the amount cap and every claim body rule (issue 31): never a server error, and
// a body is stored exactly when it obeys every rule (an oracle written from DECISIONS "Claims out", independent of
// the schema). Its own block, so generic generator changes above merge cleanly.
describe('fuzzing claim create and edit around the caps and the body rules', () => {
  const CAP = 99_999_999;
  const X12_RESERVED = /[*~:^\r\n]/;
  const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  type Line = { procedureCode: string; diagnosisPointers: number[]; units: number; chargeCents: number };
  type ClaimFields = { diagnoses: string[]; lines: Line[]; totalCharge?: string };

  // Mostly valid parts, each sometimes broken, so both sides of every rule are reached.
  const often = <T>(valid: fc.Arbitrary<T>, broken: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: broken });
  const amount = often(
    fc.oneof(fc.constantFrom(1, CAP - 1, CAP), fc.integer({ min: 1, max: 50_000 })),
    fc.oneof(fc.constantFrom(-1, 0, CAP + 1, 1e11, 2 ** 53, 1.5), fc.integer({ min: -1e12, max: 1e12 })),
  );
  const code = often(
    fc.constantFrom('99213', '87880', ' 99213 '),
    fc.constantFrom('99*13', '9921~', 'J1:00', '\uD800'),
  );
  const line = fc.record({
    procedureCode: code,
    diagnosisPointers: often<number[]>(
      fc.constantFrom<number[]>([1], [1, 2]),
      fc.array(fc.integer({ min: -1, max: 13 }), { maxLength: 5 }),
    ),
    units: often<number>(fc.constantFrom(1, 2, 99_999), fc.constantFrom(-1, 0, 100_000, 1.5)),
    chargeCents: amount,
  });
  const fields: fc.Arbitrary<ClaimFields> = fc.record(
    {
      diagnoses: often<string[]>(
        fc.constantFrom<string[]>(['J02.9', 'R50.9'], ['Z00.00', 'J02.9', 'R50.9']),
        fc.array(fc.constantFrom('J02.9', 'R50.9', 'J0^2', '\uDC00'), { maxLength: 13 }),
      ),
      lines: fc.oneof(
        { weight: 8, arbitrary: fc.array(line, { minLength: 1, maxLength: 3 }) },
        { weight: 1, arbitrary: fc.array(line, { maxLength: 0 }) },
        { weight: 1, arbitrary: fc.array(line, { minLength: 49, maxLength: 52 }) },
      ),
      totalCharge: fc.constantFrom('0', '0.01', '999999.99', '1000000.00', '12.345'),
    },
    { requiredKeys: ['diagnoses', 'lines'] },
  );

  const isValidText = (text: string) =>
    !X12_RESERVED.test(text) && !LONE_SURROGATE.test(text) && text.trim().length <= 20;
  function obeysEveryRule({ diagnoses, lines, totalCharge }: ClaimFields): boolean {
    if (diagnoses.length < 1 || diagnoses.length > 12 || !diagnoses.every(isValidText)) return false;
    if (lines.length < 1 || lines.length > 50) return false;
    const linesOk = lines.every(
      (l) =>
        isValidText(l.procedureCode) &&
        Number.isInteger(l.units) &&
        l.units >= 1 &&
        l.units <= 99_999 &&
        Number.isInteger(l.chargeCents) &&
        l.chargeCents >= 1 &&
        l.chargeCents <= CAP &&
        l.diagnosisPointers.length >= 1 &&
        l.diagnosisPointers.length <= 4 &&
        l.diagnosisPointers.every((p) => p >= 1 && p <= diagnoses.length),
    );
    if (!linesOk || lines.reduce((sum, l) => sum + l.chargeCents, 0) > CAP) return false;
    return totalCharge === undefined || totalCharge === '0.01' || totalCharge === '999999.99';
  }

  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('creates and edits drafts: no 5xx, stored exactly when every rule holds, never past the cap', async () => {
    const billing = await signIn(app, 'billing@northside.test');
    const valid = {
      diagnoses: ['J02.9'],
      lines: [{ procedureCode: '99213', diagnosisPointers: [1], units: 1, chargeCents: 100 }],
    };
    const seed = await billing.post('/api/claims', { patientId: 'pat_n_001', serviceDate: '2026-11-20', ...valid });
    expect(seed.status, seed.text).toBe(201);
    const draftId = seed.body.claimId as string;
    const samples = fc.sample(fields, { numRuns: 300, seed: 20261128 });
    const limit = pLimit(4);
    const failures: string[] = [];
    const outcomes = { stored: 0, refused: 0 };
    await Promise.all(
      samples.map((sample, i) =>
        limit(async () => {
          const isValid = obeysEveryRule(sample);
          const res =
            i % 2 === 0
              ? await billing.post('/api/claims', { patientId: 'pat_n_001', serviceDate: '2026-11-20', ...sample })
              : await billing.patch(`/api/claims/${draftId}`, sample);
          const expected = isValid ? (i % 2 === 0 ? 201 : 200) : 400;
          if (res.status !== expected)
            failures.push(`${i % 2 === 0 ? 'create' : 'edit'} ${JSON.stringify(sample).slice(0, 300)} → ${res.status}`);
          if (res.status < 300 && Number(res.body.totalChargeCents) > CAP)
            failures.push(`stored a total of ${res.body.totalChargeCents}`);
          outcomes[res.status < 300 ? 'stored' : 'refused'] += 1;
        }),
      ),
    );
    expect(failures.slice(0, 10)).toEqual([]);
    // Both sides of the rules were reached.
    expect(outcomes.stored).toBeGreaterThan(10);
    expect(outcomes.refused).toBeGreaterThan(100);
    const lines = await app.db.claimLine.findMany({ where: { claim: { clinicId: 'clinic_north' } } });
    expect(lines.filter((l) => l.chargeCents > BigInt(CAP) || l.chargeCents < 1n || l.units < 1)).toEqual([]);
  }, 300_000);
});
