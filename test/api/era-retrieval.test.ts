// ERA retrieval over real HTTP and PostgreSQL (issue 21 item 3, DECISIONS "Recurring work" and "Money in"): the
// 835s waiting at a CAQH CORE clearinghouse (a local fake that counts retrievals and 999 acknowledgements) are
// fetched by POST /api/jobs/era-retrieval, each posted once through the remittance ingest however often the job
// runs (with a clearinghouse that honours our 999 and with one that ignores it), an 835 that cannot be posted is
// left unacknowledged at the clearinghouse, and without CLEARINGHOUSE_* the route is 501 with nothing written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { HttpClient } from '../support/http';
import { createTenant, uid, type TestTenant } from '../support/factories';
import { claimPayment, createClaim, remittanceOf, x12Of, type LineSpec } from '../support/remittances';
import { clearinghouseEnv, startFakeClearinghouse, type FakeClearinghouse } from '../fakes/fake-clearinghouse';

const cron = { authorization: `Bearer ${TEST_SECRETS.CRON_SECRET}` };
const paidLines: LineSpec[] = [
  { procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '45', 4_000]] },
  { procedureCode: '81002', chargeCents: 10_000, adjustments: [['CO', '45', 6_000]] },
];

let groupControl = 100;
/** The 835 as a payer's clearinghouse holds it: its own functional group control number (GS06/GE02). */
function interchange(claimIds: string[], traceNumber = uid('TRN').toUpperCase()): { x12: string; traceNumber: string } {
  const control = String(++groupControl);
  const x12 = x12Of(
    remittanceOf(
      claimIds.map((id) => claimPayment(id, '1', paidLines)),
      { traceNumber },
    ),
  )
    .replace('*0900*1*X*005010X221A1~', `*0900*${control}*X*005010X221A1~`)
    .replace('GE*1*1~', `GE*1*${control}~`);
  return { x12, traceNumber };
}

type Run = {
  files: number;
  remittances: { fileId: string; clinicId: string; traceNumber: string; duplicate: boolean; claimsPosted: number }[];
  refused: { fileId: string; reason: string }[];
};

describe('ERA retrieval from a live CAQH CORE clearinghouse', () => {
  let app: TestApp;
  let fake: FakeClearinghouse;
  let tenant: TestTenant;
  beforeAll(async () => {
    fake = await startFakeClearinghouse();
    app = await startApp({
      env: {
        ...clearinghouseEnv(fake),
      },
    });
    tenant = await createTenant(app.db, 'Era');
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  const run = async () => {
    const res = await new HttpClient(app.url).request('POST', '/api/jobs/era-retrieval', { headers: cron });
    expect(res.status, res.text).toBe(200);
    return res.body as Run;
  };
  const postings = (traceNumber: string) => app.db.remittance.count({ where: { traceNumber } });

  it('needs the cron bearer', async () => {
    const res = await new HttpClient(app.url).request('POST', '/api/jobs/era-retrieval', {
      headers: { authorization: 'Bearer not-the-secret' },
    });
    expect(res.status).toBe(401);
    expect(fake.retrievals).toBe(0);
  });

  it('posts each waiting 835 once and acknowledges it; a second run fetches nothing and posts nothing', async () => {
    const first = await createClaim(app.db, tenant);
    const second = await createClaim(app.db, tenant);
    const a = interchange([first.id]);
    const b = interchange([second.id]);
    const fileA = fake.queueRemittance(a.x12);
    const fileB = fake.queueRemittance(b.x12);

    const one = await run();
    expect(one.files).toBe(2);
    expect(one.refused).toEqual([]);
    expect(one.remittances).toEqual([
      expect.objectContaining({
        fileId: fileA,
        clinicId: tenant.clinicId,
        traceNumber: a.traceNumber,
        duplicate: false,
      }),
      expect.objectContaining({
        fileId: fileB,
        clinicId: tenant.clinicId,
        traceNumber: b.traceNumber,
        duplicate: false,
      }),
    ]);
    expect(fake.acknowledgements).toBe(2);
    expect(fake.waitingRemittances).toBe(0);
    // The retrieval and the 999s went in batch mode, the 999 naming each 835's functional group.
    const acks = fake.received.filter((e) => e.fields.PayloadType === 'X12_999_SubmissionRequest_005010X231A1');
    expect(acks.map((e) => e.fields.Payload!.match(/AK1\*HP\*(\d+)/)?.[1])).toEqual([
      String(groupControl - 1),
      String(groupControl),
    ]);
    expect(acks.every((e) => e.fields.ProcessingMode === 'Batch' && /AK9\*A\*1\*1\*1/.test(e.fields.Payload!))).toBe(
      true,
    );

    const retrievalsBefore = fake.retrievals;
    const two = await run();
    expect(two).toMatchObject({ files: 0, remittances: [], refused: [] });
    expect(fake.retrievals).toBe(retrievalsBefore + 1);

    expect(await postings(a.traceNumber)).toBe(1);
    expect(await postings(b.traceNumber)).toBe(1);
    const stored = await app.db.remittance.findFirstOrThrow({ where: { traceNumber: a.traceNumber } });
    expect(stored).toMatchObject({ clinicId: tenant.clinicId, source: 'clearinghouse', x12: a.x12 });
    const claims = await app.db.claim.findMany({ where: { id: { in: [first.id, second.id] } } });
    expect(claims.map((c) => [c.status, Number(c.paidCents)])).toEqual([
      ['paid', 15_000],
      ['paid', 15_000],
    ]);
  });

  it('posts once however often it runs, even when the clearinghouse ignores our 999 and offers the file again', async () => {
    fake.setHonourAcknowledgements(false);
    try {
      const claim = await createClaim(app.db, tenant);
      const c = interchange([claim.id]);
      const file = fake.queueRemittance(c.x12);
      const runs = [await run(), await run(), await run()];
      expect(runs.map((r) => r.remittances.map((p) => [p.fileId, p.duplicate]))).toEqual([
        [[file, false]],
        [[file, true]],
        [[file, true]],
      ]);
      expect(await postings(c.traceNumber)).toBe(1);
      const posted = await app.db.claim.findUniqueOrThrow({ where: { id: claim.id } });
      expect(Number(posted.paidCents)).toBe(15_000);
      expect(await app.db.ledgerTransaction.count({ where: { clinicId: tenant.clinicId } })).toBeGreaterThan(0);
    } finally {
      fake.setHonourAcknowledgements(true);
      // Leave nothing waiting for the next test: acknowledge what this one left behind.
      await run();
    }
  });

  it('leaves an 835 it cannot post at the clearinghouse, unacknowledged, and writes nothing for it', async () => {
    const unknown = interchange([`clm_${'0'.repeat(16)}`]);
    const file = fake.queueRemittance(unknown.x12);
    const acksBefore = fake.acknowledgements;
    const one = await run();
    expect(one.remittances).toEqual([]);
    expect(one.refused).toEqual([{ fileId: file, reason: expect.stringMatching(/names no claim/) }]);
    expect(fake.acknowledgements).toBe(acksBefore);
    expect(fake.waitingRemittances).toBe(1);
    expect(await postings(unknown.traceNumber)).toBe(0);
    // Offered again next run, refused again, still nothing written.
    const two = await run();
    expect(two.refused.map((r) => r.fileId)).toEqual([file]);
    expect(await postings(unknown.traceNumber)).toBe(0);
  });
});

describe('ERA retrieval without CLEARINGHOUSE_*', () => {
  for (const mode of ['sandbox', 'production'] as const) {
    it(`answers 501 NOT_CONFIGURED in ${mode}, writing nothing`, async () => {
      const fake = await startFakeClearinghouse();
      const app = await startApp({ env: { SVC_ENV: mode } });
      try {
        const before = await app.db.remittance.count();
        const res = await new HttpClient(app.url).request('POST', '/api/jobs/era-retrieval', { headers: cron });
        expect(res.status, res.text).toBe(501);
        expect(res.body).toEqual({
          code: 'NOT_CONFIGURED',
          message: 'Remittance retrieval from the clearinghouse is not configured',
          correlationId: expect.any(String),
        });
        expect(res.text).not.toMatch(/CLEARINGHOUSE_/);
        expect(await app.db.remittance.count()).toBe(before);
        expect(fake.calls).toBe(0);
      } finally {
        await app.stop();
        await fake.close();
      }
    });
  }
});
