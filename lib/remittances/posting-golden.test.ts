// The differential check of the set-based posting (issue #26): the repo's 835 fixtures and a fixed-seed sample of
// generated 835s (reversals, second payments, PR bills, PLB, an unmatched CLP, a closed claim, a deposit already
// seen) are posted in a fixed order, and everything posting writes is dumped with its random ids replaced by
// labels. The golden file was written by the per-claim posting before the rewrite; the rewrite must give the same
// ledger, claims, bills, events, transmissions and remittance rows, row for row. It was written again once (audit of
// 2026-11-30), where that posting was wrong: a reversal of what was never posted, a later payer's CLP (CLP02 2) on a
// primary claim and a payment to the closed claim are kept unmatched or post the later payer's way (plan-posting.ts). They post with a chunk of ONE CLP,
// so every CLP is planned and written on its own with the running state carried between chunks: a reversal and its
// corrected claim (835-reversal-and-plb, CLPs 1 and 2 of clm_paid_0001), two payments of clm_gen_a, bills raised in
// one chunk and changed in another all give the rows the one-pass posting gave.
import fs from 'node:fs';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import { claimPayment, createClaim, remittanceArbitrary, remittanceOf, x12Of } from '@/test/support/remittances';
import { read835s } from '../x12/read-835';
import { ingestRemittance } from './ingest-remittance';

const handle = setUpTwoClinicDb();
const FIXTURES = [
  '835-paid-and-denied',
  '835-reversal-and-plb',
  '835-two-remittances',
  '835-built-paid-and-denied',
  '835-pipes-newline',
].map((name) => fs.readFileSync(`lib/x12/fixtures/${name}.x12`, 'utf8'));

/** Every claim the fixtures name, with the lines of its first CLP, so each CLP pays a claim of the clinic. */
function fixtureClaims(): Map<string, { procedureCode: string; chargeCents: number }[]> {
  const claims = new Map<string, { procedureCode: string; chargeCents: number }[]>();
  for (const x12 of FIXTURES) {
    for (const remittance of read835s(x12)) {
      for (const claim of remittance.claims) {
        if (claims.has(claim.claimId) || claim.statusCode === '22') continue;
        const lines = claim.lines.map((l) => ({ procedureCode: l.procedureCode, chargeCents: l.chargeCents }));
        claims.set(
          claim.claimId,
          lines.length > 0 ? lines : [{ procedureCode: '99213', chargeCents: claim.chargeCents }],
        );
      }
    }
  }
  return claims;
}

it('posts the fixtures and a fixed sample of 835s to the same rows as the golden file', async () => {
  const { db, north } = handle;
  const clinicId = north.clinicId;
  const patientId = 'pat_golden';
  await db.patient.create({
    data: { id: patientId, clinicId, firstName: 'Gold', lastName: 'En', birthDate: '1980-01-02' },
  });
  for (const [id, lines] of fixtureClaims()) await createClaim(db, north, { id, patientId, lines });
  const generated = ['clm_gen_a', 'clm_gen_b', 'clm_gen_c'];
  for (const id of generated) await createClaim(db, north, { id, patientId });
  await createClaim(db, north, { id: 'clm_draft', patientId, status: 'draft' });
  await createClaim(db, north, { id: 'clm_closed', patientId, status: 'closed' });
  await db.claimTransmission.create({
    data: {
      clinicId,
      claimId: 'clm_closed',
      direction: 'out',
      kind: '837P',
      controlNumber: '1',
      x12: 'x',
      correlationId: 'setup',
    },
  });
  // The deposit of the first fixture is already there: its posting reassociates.
  await db.railPosting.create({
    data: {
      id: 'rail_golden',
      clinicId,
      amountCents: 8_780n,
      direction: 'credit',
      postedAt: new Date('2026-11-21T00:00:00Z'),
      railReference: 'EFT20250316001',
    },
  });

  const sample = fc.sample(remittanceArbitrary(generated), { seed: 26, numRuns: 12 });
  const lines = [
    { procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '45', 4_000] as [string, string, number]] },
    { procedureCode: '81002', chargeCents: 10_000, adjustments: [['PR', '2', 2_500] as [string, string, number]] },
  ];
  const handBuilt = remittanceOf(
    [
      claimPayment('clm_draft', '1', lines),
      claimPayment('clm_closed', '1', lines),
      claimPayment('clm_gen_a', '1', lines),
      claimPayment('clm_gen_a', '1', [lines[0]!]),
    ],
    { providerAdjustments: [{ reason: 'L6', reference: 'INT1', amountCents: -125 as never }] },
  );
  const interchanges = [...FIXTURES, ...sample.map((r) => x12Of(r)), x12Of(handBuilt)];

  let minute = 0;
  const remittanceIds: string[] = [];
  for (const x12 of interchanges) {
    const clock = () => new Date(Date.UTC(2026, 10, 23, 12, minute));
    minute++;
    const { remittances } = await ingestRemittance(
      { db, clock },
      { clinicId, x12, source: 'upload', correlationId: `c${minute}`, chunkSize: 1 },
    );
    for (const r of remittances) if (!r.duplicate) remittanceIds.push(r.remittanceId);
  }
  expect(remittanceIds.length).toBeGreaterThan(15);

  await expect(JSON.stringify(await dump(clinicId, remittanceIds), null, 1)).toMatchFileSnapshot(
    './posting-golden.json',
  );
});

/** Everything posting writes for the clinic, ids replaced by labels (remittances and transactions by order). */
async function dump(clinicId: string, remittanceIds: string[]) {
  const { db } = handle;
  const labels = new Map<string, string>();
  remittanceIds.forEach((id, i) => labels.set(id, `REM${i}`));
  const remittances = await db.remittance.findMany({
    where: { clinicId },
    include: { claims: { orderBy: { position: 'asc' } } },
  });
  remittances.sort((a, b) => remittanceIds.indexOf(a.id) - remittanceIds.indexOf(b.id));
  let n = 0;
  for (const r of remittances) for (const id of r.ledgerTransactionIds) labels.set(id, `LTX${n++}`);
  const label = (text: string) =>
    text
      .replace(/(rem|ltx)_[0-9a-f]{32}/g, (id) => labels.get(id) ?? 'UNLABELLED')
      .replace(/TRN_[0-9A-F]{12}/g, 'TRN_GENERATED');
  const relabel = (value: unknown) =>
    JSON.parse(label(JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))));

  const transactions = await db.ledgerTransaction.findMany({
    where: { clinicId },
    include: { entries: true },
  });
  const ledger = transactions
    .map((t) => ({
      id: label(t.id),
      kind: t.kind,
      reference: label(t.reference),
      correlationId: t.correlationId,
      createdAt: t.createdAt.toISOString(),
      entries: t.entries
        .map((e) => ({ id: label(e.id), account: e.account, amountCents: `${e.amountCents}` }))
        .sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true })),
    }))
    .sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }) || a.reference.localeCompare(b.reference));

  const claims = await db.claim.findMany({
    where: { clinicId },
    orderBy: { id: 'asc' },
    include: { lines: { orderBy: { position: 'asc' } } },
  });
  const bills = await db.patientBill.findMany({ where: { clinicId } });
  const events = await db.claimEvent.findMany({ where: { clinicId } });
  const transmissions = await db.claimTransmission.findMany({ where: { clinicId, direction: 'in' } });
  const eventKey = (e: (typeof events)[number]) => {
    const detail = (e.detail ?? {}) as { remittanceId?: string; position?: number };
    return `${e.claimId} ${remittanceIds
      .indexOf(detail.remittanceId ?? '')
      .toString()
      .padStart(3, '0')} ${String(detail.position ?? 0).padStart(5, '0')}`;
  };

  return relabel({
    remittances: remittances.map((r) => ({
      id: r.id,
      payerId: r.payerId,
      payerName: r.payerName,
      payeeNpi: r.payeeNpi,
      traceNumber: r.traceNumber,
      paymentMethod: r.paymentMethod,
      paymentCents: r.paymentCents,
      paymentDate: r.paymentDate,
      providerAdjustments: r.providerAdjustments,
      source: r.source,
      x12Length: r.x12.length,
      ledgerTransactionIds: r.ledgerTransactionIds,
      correlationId: r.correlationId,
      createdAt: r.createdAt.toISOString(),
      claims: r.claims.map(({ id: _id, remittanceId: _r, clinicId: _c, ...rest }) => rest),
    })),
    ledger,
    claims: claims.map(({ updatedAt: _u, createdAt: _c, clinicId: _cl, lines, ...rest }) => ({
      ...rest,
      lines: lines.map(({ id: _id, clinicId: _c2, claimId: _cl2, ...line }) => line),
    })),
    bills: bills
      .map(({ id: _id, createdAt: _c, updatedAt: _u, clinicId: _cl, ...rest }) => rest)
      .sort((a, b) => String(a.claimId).localeCompare(String(b.claimId))),
    events: events
      .map((e) => ({
        key: eventKey(e),
        kind: e.kind,
        from: e.fromStatus,
        to: e.toStatus,
        detail: e.detail,
        correlationId: e.correlationId,
        at: e.at.toISOString(),
      }))
      .filter((e) => e.kind === 'payment' || e.kind === 'reversal')
      .sort((a, b) => a.key.localeCompare(b.key)),
    transmissions: transmissions
      .map((t) => ({
        claimId: t.claimId,
        kind: t.kind,
        controlNumber: t.controlNumber,
        x12Length: t.x12.length,
        correlationId: t.correlationId,
        at: t.at.toISOString(),
      }))
      .sort((a, b) => `${a.claimId}${a.at}`.localeCompare(`${b.claimId}${b.at}`)),
  });
}
