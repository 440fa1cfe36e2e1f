// A payer-scale 835 over real HTTP and PostgreSQL (issue #26): 5,000 claims posted once through the staff upload
// and once through the ERA webhook, whose delivery is answered 202 and posted by the background job, give the same
// ledger; a re-delivery and the same 835 in a new envelope post nothing more.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '@/lib/webhooks/verify-signature';
import { build835 } from '@/lib/x12/fixtures/build-835';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient, signIn } from '../support/http';
import { createTenant, createUser, type TestTenant } from '../support/factories';
import { largeClaimSet, largeRemittance, seedClaims } from '../support/large-835';

const CLAIMS = 5_000;
const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

describe('a 5,000-claim 835 through the upload and the ERA webhook job', () => {
  let app: TestApp;
  let uploaded: TestTenant;
  let delivered: TestTenant;
  let staff: HttpClient;

  beforeAll(async () => {
    app = await startApp();
    uploaded = await createTenant(app.db, 'Upload');
    delivered = await createTenant(app.db, 'Webhook');
    const user = await createUser(app.db, uploaded, { scopes: ['svcpay:read', 'svcpay:write'] });
    staff = await signIn(app, user.email, user.password);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  function era(clinicId: string, x12: string, id = uid('evt'), delivery = uid('dlv')) {
    const raw = JSON.stringify({
      id,
      type: 'era.received',
      createdAt: new Date().toISOString(),
      clinicId,
      data: { x12 },
    });
    return new HttpClient(app.url).request('POST', '/api/webhooks/era', {
      body: raw,
      headers: {
        'content-type': 'application/json',
        'x-svc-delivery': delivery,
        'x-svc-signature': signBody(Buffer.from(raw), TEST_SECRETS.WEBHOOK_SECRET_ERA),
      },
    });
  }

  /** The clinic's ledger by kind and account: sums and transaction counts, ids left out. */
  const ledgerOf = (clinicId: string) =>
    app.db.$queryRawUnsafe<unknown[]>(
      `SELECT t."kind", e."account", SUM(e."amountCents")::text AS cents, COUNT(DISTINCT t."id")::int AS n
       FROM "LedgerTransaction" t JOIN "LedgerEntry" e ON e."transactionId" = t."id"
       WHERE t."clinicId" = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      clinicId,
    );

  async function waitForPosting(clinicId: string): Promise<void> {
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline) {
      if ((await app.db.remittanceClaim.count({ where: { clinicId } })) === CLAIMS) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the ERA job did not post the 835 in time');
  }

  it('posts the same ledger either way, exactly once', async () => {
    // The same charges and payments (one seed) for two sets of claim ids, one per clinic (claim ids are global).
    const ours = largeClaimSet('clm_up', CLAIMS);
    const theirs = largeClaimSet('clm_wh', CLAIMS);
    await seedClaims(app.db, uploaded.clinicId, ours);
    await seedClaims(app.db, delivered.clinicId, theirs);
    // No line breaks: the webhook's body (1 MiB) holds the 835 as a JSON string.
    const x12Of = (claims: typeof ours) => build835(largeRemittance(claims, { traceNumber: 'ERA5000' }), undefined, '');
    const uploadX12 = x12Of(ours);
    const x12 = x12Of(theirs);

    const upload = await staff.request('POST', '/api/remittances', {
      body: uploadX12,
      headers: { 'content-type': 'application/edi-x12' },
    });
    expect(upload.status).toBe(200);
    expect(upload.body.remittances[0]).toMatchObject({ claimsPosted: CLAIMS, duplicate: false });

    const eventId = uid('evt');
    const deliveryId = uid('dlv');
    const accepted = await era(delivered.clinicId, x12, eventId, deliveryId);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({
      received: true,
      duplicate: false,
      outcome: 'recorded',
      reason: 'remittance queued for posting',
    });
    const delivery = await app.db.webhookDelivery.findFirst({ where: { receiver: 'era', deliveryId } });
    expect(delivery?.outcome).toBe('recorded');
    await waitForPosting(delivered.clinicId);

    const ledger = await ledgerOf(uploaded.clinicId);
    expect(ledger.length).toBeGreaterThan(3);
    expect(await ledgerOf(delivered.clinicId)).toEqual(ledger);

    // A re-delivery changes nothing; the same 835 in a new envelope is queued and its job finds it posted.
    expect((await era(delivered.clinicId, x12, eventId, deliveryId)).body).toEqual({ received: true, duplicate: true });
    expect((await era(delivered.clinicId, x12)).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(await app.db.remittance.count({ where: { clinicId: delivered.clinicId } })).toBe(1);
    expect(await ledgerOf(delivered.clinicId)).toEqual(ledger);
  }, 400_000);
});
