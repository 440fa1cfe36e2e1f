// No request input gives a 5xx (issue #30 item 1, issue #31 item 4; DECISIONS "Security findings of 2026-11-28"):
// a NUL or other control character in an uploaded 835, a lone surrogate in any JSON string and a malformed
// percent-encoding in a path segment are 400 VALIDATION_FAILED with the error body and write nothing; an unknown
// API path stays 404; a method a route does not have is 405 with the error body too. Also the request-level
// findings of the same reviews: a future-dated partner event (item 4), appeal attachment links (item 6) and LIKE
// wildcards in patient search (issue #31 item 4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '@/lib/webhooks/verify-signature';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { stepUpHeader } from '../support/step-up-claim';
import { createPatient, createTenant, createUser, uid, type TestTenant } from '../support/factories';
import { claimPayment, createClaim, remittanceOf, x12Of, type LineSpec } from '../support/remittances';

const NORTH: TestTenant = { orgId: 'org_demo', clinicId: 'clinic_north', clinicName: 'Northside Clinic' };
/** What createClaim's two default lines are paid: 99213 $150.00 and 81002 $100.00, with contractual adjustments. */
const PAID_LINES: LineSpec[] = [
  { procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '45', 4_025]] },
  { procedureCode: '81002', chargeCents: 10_000, adjustments: [['CO', '45', 6_000]] },
];
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

const validation = (message: string, issues: { path: string; message: unknown }[]) => ({
  code: 'VALIDATION_FAILED',
  message,
  correlationId: expect.any(String),
  issues,
});

describe('bad input is 400, never 5xx', () => {
  let app: TestApp;
  let admin: HttpClient;
  let billing: HttpClient;
  let tenant: TestTenant;

  beforeAll(async () => {
    app = await startApp();
    admin = await signIn(app, 'admin@northside.test');
    tenant = await createTenant(app.db, 'Remit');
    const user = await createUser(app.db, tenant, { scopes: ['svcpay:read', 'svcpay:write', 'claims:read'] });
    billing = await signIn(app, user.email, user.password);
  });
  afterAll(async () => {
    await app?.stop();
  });

  describe('an uploaded 835 holding a control character', () => {
    const withPayerName = (x12: string, name: string) => x12.replace(/N1\*PR\*[^*~]*/, `N1*PR*${name}`);

    it.each([
      ['NUL', 'Payer\u0000Name', 'U+0000'],
      ['BEL', 'Payer\u0007Name', 'U+0007'],
      ['ESC', 'Payer\u001bName', 'U+001B'],
      ['a C1 control', 'Payer\u0085Name', 'U+0085'],
    ])('refuses %s in JSON and multipart with 400 on body.x12, posting nothing', async (_, name, codePoint) => {
      const claim = await createClaim(app.db, tenant);
      const x12 = withPayerName(x12Of(remittanceOf([claimPayment(claim.id, '1', PAID_LINES)])), name);
      expect(x12).toContain(name);
      const form = new FormData();
      form.set('file', new Blob([x12]), '835.txt');
      for (const res of [
        await billing.post('/api/remittances', { x12 }),
        await billing.request('POST', '/api/remittances', { body: form }),
      ]) {
        expect(res.status, res.text).toBe(400);
        const message = expect.stringContaining(`control character (${codePoint})`);
        expect(res.body).toEqual(
          validation(expect.stringContaining(codePoint) as never, [{ path: 'body.x12', message }]),
        );
      }
      expect(await app.db.remittance.count({ where: { clinicId: tenant.clinicId } })).toBe(0);
    });

    it('refuses a lone surrogate in the JSON upload, and still posts a clean 835 with line breaks', async () => {
      const claim = await createClaim(app.db, tenant);
      const x12 = x12Of(remittanceOf([claimPayment(claim.id, '1', PAID_LINES)]));
      const surrogate = await billing.post('/api/remittances', { x12: withPayerName(x12, 'Payer\ud800') });
      expect(surrogate.status).toBe(400);
      expect(surrogate.body.issues).toEqual([{ path: 'body.x12', message: expect.stringContaining('surrogate') }]);
      const clean = await billing.post('/api/remittances', { x12: x12.replaceAll('~', '~\r\n') });
      expect(clean.status, clean.text).toBe(200);
    });
  });

  describe('a lone surrogate in a JSON string', () => {
    it('is 400 on the verify patientId', async () => {
      const patient = await createPatient(app.db, NORTH, { memberId: 'DEMO-ACTIVE-S1' });
      const body = {
        patientId: patient.id,
        firstName: patient.firstName,
        lastName: patient.lastName,
        dob: patient.birthDate,
        memberId: 'DEMO-ACTIVE-S1',
        payerName: 'Aetna',
        npi: '1234567893',
      };
      for (const patientId of ['\ud800', `${patient.id}\udc00`]) {
        const res = await admin.post('/api/eligibility/verify', { ...body, patientId });
        expect(res.status, res.text).toBe(400);
        expect(res.body).toEqual(
          validation('The request body is not valid', [{ path: 'body.patientId', message: expect.any(String) }]),
        );
      }
      expect(await app.db.eligibilityCheck.count({ where: { patientId: patient.id } })).toBe(0);
    });

    it("is 400 in a claim's diagnoses on create and on edit, and the draft is unchanged", async () => {
      const patient = await createPatient(app.db, NORTH, { memberId: 'DEMO-ACTIVE-S2' });
      const claim = {
        patientId: patient.id,
        serviceDate: daysAgo(3),
        placeOfService: '11',
        diagnoses: ['J02.9'],
        lines: [{ procedureCode: '99213', diagnosisPointers: [1], units: 1, chargeCents: 12_500 }],
      };
      const created = await admin.post('/api/claims', { ...claim, diagnoses: ['J02.9', '\ud800'] });
      expect(created.status, created.text).toBe(400);
      expect(created.body).toEqual(
        validation('The request body is not valid', [{ path: 'body.diagnoses.1', message: expect.any(String) }]),
      );
      expect(await app.db.claim.count({ where: { patientId: patient.id } })).toBe(0);

      const draft = await admin.post('/api/claims', claim);
      expect(draft.status, draft.text).toBe(201);
      const edited = await admin.patch(`/api/claims/${draft.body.claimId}`, { diagnoses: ['\udfff'] });
      expect(edited.status, edited.text).toBe(400);
      expect(edited.body.issues).toEqual([{ path: 'body.diagnoses.0', message: expect.any(String) }]);
      expect((await admin.get(`/api/claims/${draft.body.claimId}`)).body.diagnoses).toEqual(['J02.9']);
    });
  });

  describe('a deeply nested JSON body', () => {
    // JSON.parse reads half a million levels (it is iterative); the check of every string at the door copied its
    // path at each level, quadratic in the depth, and held the server for minutes before auth on a public route.
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

    it('is 400 before anything else reads it on a signed-in route, and never read on the public CDS Hooks route without a token', async () => {
      const deep = `{"patientId":${nested(400_000)}}`;
      const verify = await admin.request('POST', '/api/eligibility/verify', {
        body: deep,
        headers: { 'content-type': 'application/json' },
      });
      expect(verify.status, verify.text).toBe(400);
      expect(verify.body.code).toBe('VALIDATION_FAILED');
      expect(verify.body.issues).toEqual([
        { path: `body.patientId${'.0'.repeat(63)}`, message: 'Nested deeper than 64 levels' },
      ]);
      // The EHR's token is checked before a CDS body is read (cds-hooks.test.ts: the same body with a token is 400).
      const cds = await new HttpClient(app.url).request('POST', '/cds-services/coverage-check', {
        body: nested(400_000),
        headers: { 'content-type': 'application/json' },
      });
      expect(cds.status, cds.text).toBe(401);
      expect(cds.body.code).toBe('UNAUTHENTICATED');
    });

    it('still takes sixty-four levels', async () => {
      const res = await admin.request('POST', '/api/eligibility/verify', {
        body: `{"patientId":${nested(63)}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.issues).toContainEqual({ path: 'body.patientId', message: expect.not.stringMatching(/Nested/) });
    });
  });

  describe('the path', () => {
    it.each(['%ff', '%', '%E0%A4', '%ED%A0%80'])(
      'is 400 for a malformed percent-encoding (%s) in an [id]',
      async (id) => {
        const paths = [`/api/claims/${id}`, `/api/patients/${id}/coverage`, `/api/emr-sync/runs/${id}`];
        // Under /api/webhooks/ too: only the receivers themselves skip middleware.
        for (const path of [...paths, `/api/webhooks/${id}`]) {
          const res = await admin.get(path);
          expect(res.status, `${path}: ${res.text}`).toBe(400);
          expect(res.body).toEqual(
            validation('The request path is not valid', [{ path: 'params', message: expect.any(String) }]),
          );
        }
      },
    );

    it('is 400 for a decoded NUL in an [id], and 404 for a well-formed unknown id or an unknown API path', async () => {
      const nul = await admin.get('/api/claims/a%00b');
      expect(nul.status).toBe(400);
      expect(nul.body.code).toBe('VALIDATION_FAILED');
      expect((await admin.get('/api/claims/clm_nope')).body.code).toBe('NOT_FOUND');
      const unknown = await admin.get('/api/no-such-thing/%41');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({
        code: 'NOT_FOUND',
        message: expect.any(String),
        correlationId: expect.any(String),
      });
    });

    it('is 401 before 400 without a session', async () => {
      expect((await new HttpClient(app.url).get('/api/claims/%ff')).status).toBe(401);
    });
  });

  describe('a method a route does not have', () => {
    it.each([
      ['PUT', '/api/health'],
      ['DELETE', '/api/claims'],
      ['PATCH', '/api/eligibility/verify'],
      ['GET', '/api/webhooks/emr'],
      ['PUT', '/api/webhooks/payment'],
    ])('is 405 with the error body: %s %s', async (method, path) => {
      const res = await admin.request(method, path);
      expect(res.status).toBe(405);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.body).toEqual({
        code: 'METHOD_NOT_ALLOWED',
        message: 'This API route does not accept that method',
        correlationId: expect.any(String),
      });
      expect(res.headers.get('x-correlation-id')).toBe(res.body.correlationId);
    });
  });
});

describe('request-level findings of 2026-11-28', () => {
  let app: TestApp;
  let admin: HttpClient;

  beforeAll(async () => {
    app = await startApp();
    admin = await signIn(app, 'admin@northside.test');
  });
  afterAll(async () => {
    await app?.stop();
  });

  describe('a partner event dated in the future', () => {
    const sendEmr = (event: unknown) => {
      const raw = JSON.stringify(event);
      return new HttpClient(app.url).request('POST', '/api/webhooks/emr', {
        body: raw,
        headers: {
          'content-type': 'application/json',
          'x-svc-signature': `sha256=${signBody(Buffer.from(raw), TEST_SECRETS.WEBHOOK_SECRET_EMR)}`,
          'x-svc-delivery': uid('dlv'),
        },
      });
    };
    const update = (patientId: string, createdAt: string, given: string) => ({
      id: uid('evt'),
      type: 'emr.patient.updated',
      createdAt,
      clinicId: NORTH.clinicId,
      data: { patientId, name: { given } },
    });

    it('is 400 beyond 5 minutes ahead and changes nothing, so a later real update still applies', async () => {
      const patient = await createPatient(app.db, NORTH, { firstName: 'Real' });
      const deliveries = () => app.db.webhookDelivery.count({ where: { receiver: 'emr' } });
      const before = await deliveries();
      for (const createdAt of ['2099-01-01T00:00:00Z', new Date(Date.now() + 6 * 60_000).toISOString()]) {
        const res = await sendEmr(update(patient.id, createdAt, 'Poison'));
        expect(res.status, res.text).toBe(400);
        expect(res.body).toEqual(
          validation('The event is dated in the future', [{ path: 'body.createdAt', message: expect.any(String) }]),
        );
      }
      expect(await deliveries()).toBe(before);
      expect(await app.db.patient.findUnique({ where: { id: patient.id } })).toMatchObject({ firstName: 'Real' });

      const later = await sendEmr(update(patient.id, new Date().toISOString(), 'Later'));
      expect(later.body).toMatchObject({ received: true, outcome: 'applied' });
      expect(await app.db.patient.findUnique({ where: { id: patient.id } })).toMatchObject({ firstName: 'Later' });
    });

    it('accepts an event a little ahead (partner clock skew within 5 minutes)', async () => {
      const patient = await createPatient(app.db, NORTH, { firstName: 'Real' });
      const skewed = await sendEmr(update(patient.id, new Date(Date.now() + 4 * 60_000).toISOString(), 'Skewed'));
      expect(skewed.body).toMatchObject({ received: true, outcome: 'applied' });
      expect(await app.db.patient.findUnique({ where: { id: patient.id } })).toMatchObject({ firstName: 'Skewed' });
    });
  });

  describe('appeal attachment links', () => {
    it.each([
      'javascript:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'http://docs.example.test/letter.pdf',
    ])('refuses %s with 400 naming the field, and keeps the claim denied', async (url) => {
      const stepUp = await stepUpHeader(app, 'admin@northside.test');
      const claim = await createClaim(app.db, NORTH, { status: 'denied' });
      const res = await admin.post(
        `/api/claims/${claim.id}/appeal`,
        { reason: 'Medically necessary', attachments: [{ name: 'Letter', url }] },
        { headers: stepUp },
      );
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual(
        validation('The request body is not valid', [
          { path: 'body.attachments.0.url', message: 'An attachment link must be an https:// URL' },
        ]),
      );
      expect(await app.db.claim.findUnique({ where: { id: claim.id } })).toMatchObject({ status: 'denied' });
    });

    it('accepts an https link', async () => {
      const stepUp = await stepUpHeader(app, 'admin@northside.test');
      const claim = await createClaim(app.db, NORTH, { status: 'denied' });
      const res = await admin.post(
        `/api/claims/${claim.id}/appeal`,
        { reason: 'Medically necessary', attachments: [{ name: 'Letter', url: 'https://docs.example.test/l.pdf' }] },
        { headers: stepUp },
      );
      expect(res.status, res.text).toBe(200);
    });
  });

  describe('patient search', () => {
    it('matches % and _ literally in the name and the member id, in the patient list and the claim picker', async () => {
      const tenant = await createTenant(app.db, 'Search');
      const user = await createUser(app.db, tenant, { scopes: ['patients:read', 'claims:write'] });
      const client = await signIn(app, user.email, user.password);
      const plain = await createPatient(app.db, tenant, { firstName: 'Ann', lastName: 'Rivera', memberId: 'AB12' });
      const underscore = await createPatient(app.db, tenant, { firstName: 'Bo', lastName: 'Ri_era', memberId: 'A_12' });
      const percent = await createPatient(app.db, tenant, { firstName: 'Cy', lastName: 'Ri%era', memberId: 'A%12' });
      const found = async (query: string) => {
        const res = await client.get(`/api/patients?${query}`);
        expect(res.status, res.text).toBe(200);
        return (res.body.patients as { id: string }[]).map((p) => p.id).sort();
      };
      expect(await found('name=Ri_era')).toEqual([underscore.id]);
      expect(await found('name=_')).toEqual([underscore.id]);
      expect(await found(`name=${encodeURIComponent('%')}`)).toEqual([percent.id]);
      expect(await found(`name=${encodeURIComponent('Ri%')}`)).toEqual([percent.id]);
      expect(await found('memberId=A_1')).toEqual([underscore.id]);
      expect(await found(`memberId=${encodeURIComponent('A%')}`)).toEqual([percent.id]);
      expect(await found('name=rivera')).toEqual([plain.id]);
      expect(await found(`name=${encodeURIComponent('\\')}`)).toEqual([]);
      // The claim form's patient picker reads its words the same way.
      const picked = async (q: string) => {
        const res = await client.get(`/api/claims/patients?q=${encodeURIComponent(q)}`);
        expect(res.status, res.text).toBe(200);
        return (res.body.patients as { patientId: string }[]).map((p) => p.patientId).sort();
      };
      expect(await picked('Ri_era')).toEqual([underscore.id]);
      expect(await picked('%')).toEqual([percent.id]);
    });
  });
});
