// What a claim can take from an 835, against a real PostgreSQL database (no app): a reversal takes back only what
// was posted, a later payer's payment settles the patient's share (never more than is open), a patient's payment
// committing while an 835 posts keeps its bill right, an interchange posts whole or not at all, and a different 835
// reusing a posted trace number is refused rather than taken for a copy (DECISIONS "Money in", "Claim lifecycle").
import { describe, expect, it } from 'vitest';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import {
  claimPayment,
  createClaim,
  interchangeOf,
  ledgerBalance,
  remittanceOf,
  reversalOf,
  x12Of,
  type LineSpec,
} from '@/test/support/remittances';
import { build835 } from '../x12/fixtures/build-835';
import { recordSucceededPayment } from '../webhooks/record-payment';
import { ingestRemittance } from './ingest-remittance';
import { CROSSOVER_FIRST_REASON, REVERSAL_EXCEEDS_REASON, REVERSAL_SIGN_REASON } from './plan-posting';

const handle = setUpTwoClinicDb();
const clock = () => new Date('2026-11-30T12:00:00Z');
const ingest = (clinicId: string, x12: string) =>
  ingestRemittance({ db: handle.db, clock }, { clinicId, x12, source: 'upload', correlationId: 'test' });

// Charge 150.00: CO-45 25.00, PR-1 25.00, paid 100.00.
const lines: LineSpec[] = [
  {
    procedureCode: '99213',
    chargeCents: 15_000,
    adjustments: [
      ['CO', '45', 2_500],
      ['PR', '1', 2_500],
    ],
  },
];

const accountBalance = (clinicId: string, account: string, reference?: string) =>
  ledgerBalance(handle.db, clinicId, account, reference);

/** The ledger of one CLP's posting, account by account (zero accounts absent). */
async function postingOf(clinicId: string, remittanceId: string, position: number) {
  const rows = await handle.db.$queryRawUnsafe<{ account: string; cents: string }[]>(
    `SELECT e."account", SUM(e."amountCents")::text AS cents FROM "LedgerEntry" e
       JOIN "LedgerTransaction" t ON t."id" = e."transactionId"
     WHERE t."clinicId" = $1 AND t."reference" = $2 GROUP BY 1 ORDER BY 1`,
    clinicId,
    `remittance:${remittanceId}:${position}`,
  );
  return Object.fromEntries(rows.map((r) => [r.account, Number(r.cents)]));
}

async function unbalancedTransactions(): Promise<unknown[]> {
  return handle.db.$queryRawUnsafe(
    `SELECT "transactionId" FROM "LedgerEntry" GROUP BY 1 HAVING SUM("amountCents") <> 0`,
  );
}

/** Everything a posting could touch in the clinic. */
async function snapshot(clinicId: string) {
  const { db } = handle;
  return Promise.all([
    db.ledgerTransaction.count({ where: { clinicId } }),
    db.remittance.count({ where: { clinicId } }),
    db.remittanceClaim.count({ where: { clinicId } }),
    db.patientBill.findMany({ where: { clinicId }, orderBy: { id: 'asc' } }),
    db.claimEvent.count({ where: { clinicId } }),
    db.claim.findMany({ where: { clinicId }, orderBy: { id: 'asc' }, include: { lines: true } }),
  ]);
}

async function totalsOf(claimId: string) {
  const claim = await handle.db.claim.findUniqueOrThrow({ where: { id: claimId } });
  return {
    status: claim.status,
    paidCents: Number(claim.paidCents),
    patientResponsibilityCents: Number(claim.patientResponsibilityCents),
    adjustmentCents: Number(claim.adjustmentCents),
  };
}

async function keptOf(remittanceId: string) {
  const kept = await handle.db.remittanceClaim.findMany({ where: { remittanceId }, orderBy: { position: 'asc' } });
  return kept.map((c) => [c.claimId, c.statusCode, c.posting, c.unmatchedReason]);
}

const billOf = (claimId: string) => handle.db.patientBill.findFirst({ where: { claimId } });

/** A patient's payment of the bill, as the payment webhook records it (lib/webhooks/record-payment.ts). */
function payBill(tx: Parameters<typeof recordSucceededPayment>[0], clinicId: string, billId: string, cents: number) {
  return recordSucceededPayment(tx, {
    clinicId,
    data: { paymentId: `pay_${billId}_${cents}`, billId, amountCents: cents, currency: 'USD' },
    now: clock(),
    correlationId: 'test',
  });
}

describe('a reversal (CLP02 22) takes back only what was posted to its claim', () => {
  it('keeps a reversal of a payment that was never posted unmatched: no charge booked, no negative paid total', async () => {
    const { north, db } = handle;
    const [never, other] = [await createClaim(db, north), await createClaim(db, north)];
    // CLP*<never>*22*-100*-80*0~CAS*CO*45*-20, beside a payment so that BPR02 is not negative.
    const reversal = reversalOf(
      claimPayment(never.id, '1', [
        { procedureCode: '99213', chargeCents: 10_000, adjustments: [['CO', '45', 2_000]] },
      ]),
    );
    const before = await totalsOf(never.id);
    const { remittances } = await ingest(
      north.clinicId,
      x12Of(remittanceOf([reversal, claimPayment(other.id, '1', lines)])),
    );
    expect(remittances[0]).toMatchObject({ claimsPosted: 1, claimsUnmatched: 1 });
    expect(await keptOf(remittances[0]!.remittanceId)).toEqual([
      [never.id, '22', 'unmatched', REVERSAL_EXCEEDS_REASON],
      [other.id, '1', 'posted', null],
    ]);
    expect(await totalsOf(never.id)).toEqual(before);
    expect(await postingOf(north.clinicId, remittances[0]!.remittanceId, 1)).toEqual({});
    expect(await accountBalance(north.clinicId, 'assets:claims-receivable', `claim:${never.id}`)).toBe(0n);
    expect(await db.claimEvent.count({ where: { claimId: never.id } })).toBe(0);
    expect(await unbalancedTransactions()).toEqual([]);
  });

  it('keeps a "reversal" whose amounts are not negated unmatched, instead of posting it as a second payment', async () => {
    const { north, db } = handle;
    const [paid, other] = [await createClaim(db, north), await createClaim(db, north)];
    await ingest(north.clinicId, x12Of(remittanceOf([claimPayment(paid.id, '1', lines)])));
    const before = await totalsOf(paid.id);
    // CLP*<paid>*22*150*100*25~CAS*CO*45*25~CAS*PR*1*25
    const { remittances } = await ingest(
      north.clinicId,
      x12Of(remittanceOf([claimPayment(paid.id, '22', lines), claimPayment(other.id, '1', lines)])),
    );
    expect(await keptOf(remittances[0]!.remittanceId)).toEqual([
      [paid.id, '22', 'unmatched', REVERSAL_SIGN_REASON],
      [other.id, '1', 'posted', null],
    ]);
    expect(await totalsOf(paid.id)).toEqual(before);
    expect(before).toEqual({
      status: 'paid',
      paidCents: 10_000,
      patientResponsibilityCents: 2_500,
      adjustmentCents: 2_500,
    });
    expect((await billOf(paid.id))?.amountCents).toBe(2_500);
  });

  it('takes a payment back once: a second reversal of it in the same 835 is kept unmatched', async () => {
    const { north, db } = handle;
    const [paid, b, c] = [await createClaim(db, north), await createClaim(db, north), await createClaim(db, north)];
    const payment = claimPayment(paid.id, '1', lines);
    await ingest(north.clinicId, x12Of(remittanceOf([payment])));
    const { remittances } = await ingest(
      north.clinicId,
      x12Of(
        remittanceOf([
          reversalOf(payment),
          reversalOf(payment),
          claimPayment(b.id, '1', lines),
          claimPayment(c.id, '1', lines),
        ]),
      ),
    );
    expect((await keptOf(remittances[0]!.remittanceId)).map((k) => [k[2], k[3]])).toEqual([
      ['posted', null],
      ['unmatched', REVERSAL_EXCEEDS_REASON],
      ['posted', null],
      ['posted', null],
    ]);
    expect(await totalsOf(paid.id)).toEqual({
      status: 'accepted',
      paidCents: 0,
      patientResponsibilityCents: 0,
      adjustmentCents: 0,
    });
    expect((await billOf(paid.id))?.amountCents).toBe(0);
    expect(
      await accountBalance(north.clinicId, 'assets:claims-receivable', `remittance:${remittances[0]!.remittanceId}:2`),
    ).toBe(0n);
  });

  it('refuses (422) an 835 whose only CLP is a reversal its claim cannot take, and posts nothing', async () => {
    const { north, db } = handle;
    const never = await createClaim(db, north);
    const before = await snapshot(north.clinicId);
    await expect(
      ingest(north.clinicId, x12Of(remittanceOf([claimPayment(never.id, '22', lines)]))),
    ).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      message: `The 835 has no CLP its claim can take (CLP01 "${never.id}": ${REVERSAL_SIGN_REASON}); nothing was posted`,
    });
    expect(await snapshot(north.clinicId)).toEqual(before);
  });
});

// A later payer's CLP (CLP02 2) naming our primary claim: charge 150.00, OA-23 125.00 (the prior payer's share),
// PR-2 5.00 left to the patient, paid 20.00.
const crossover = (claimId: string) =>
  claimPayment(claimId, '2', [
    {
      procedureCode: '99213',
      chargeCents: 15_000,
      adjustments: [
        ['OA', '23', 12_500],
        ['PR', '2', 500],
      ],
    },
  ]);

describe("a later payer's payment on a primary claim (crossover, CLP02 2, 3, 20, 21)", () => {
  it("posts the secondary way: the patient's share comes off the bill, the receivable is not credited again", async () => {
    const { north, db } = handle;
    const claim = await createClaim(db, north);
    await ingest(north.clinicId, x12Of(remittanceOf([claimPayment(claim.id, '1', lines)])));
    expect((await billOf(claim.id))?.amountCents).toBe(2_500);

    const { remittances } = await ingest(north.clinicId, x12Of(remittanceOf([crossover(claim.id)])));
    const id = remittances[0]!.remittanceId;
    expect(await postingOf(north.clinicId, id, 1)).toEqual({
      'assets:era-clearing': 2_000,
      'assets:patient-receivable': -2_000,
    });
    expect(await billOf(claim.id)).toMatchObject({ amountCents: 500, status: 'open' });
    // Its state stays the primary's; the 20.00 is paid and no longer the patient's to pay.
    expect(await totalsOf(claim.id)).toEqual({
      status: 'paid',
      paidCents: 12_000,
      patientResponsibilityCents: 500,
      adjustmentCents: 2_500,
    });
    // The charge (250.00) was booked once and taken off by the primary's CLP only.
    expect(await accountBalance(north.clinicId, 'assets:claims-receivable', `claim:${claim.id}`)).toBe(25_000n);
    expect(await accountBalance(north.clinicId, 'assets:claims-receivable', `remittance:${id}%`)).toBe(0n);
    expect(await unbalancedTransactions()).toEqual([]);
  });

  it("keeps it unmatched while the primary payer's payment is not posted", async () => {
    const { north, db } = handle;
    const [claim, other] = [await createClaim(db, north), await createClaim(db, north)];
    const before = await totalsOf(claim.id);
    const { remittances } = await ingest(
      north.clinicId,
      x12Of(remittanceOf([crossover(claim.id), claimPayment(other.id, '1', lines)])),
    );
    expect((await keptOf(remittances[0]!.remittanceId))[0]).toEqual([
      claim.id,
      '2',
      'unmatched',
      CROSSOVER_FIRST_REASON,
    ]);
    expect(await totalsOf(claim.id)).toEqual(before);
    expect(await billOf(claim.id)).toBeNull();
    expect(await accountBalance(north.clinicId, 'assets:claims-receivable', `claim:${claim.id}`)).toBe(0n);
  });
});

describe("a secondary payment never takes the patient's bill or receivable below what is open", () => {
  // The secondary's 835 (CLP02 2) for a secondary claim: charge 150.00, OA-23 (the primary's share), paid the rest.
  const secondaryPayment = (claimId: string, paidCents: number, patientCents = 0) =>
    claimPayment(claimId, '2', [
      {
        procedureCode: '99213',
        chargeCents: 15_000,
        adjustments: [
          ['OA', '23', 15_000 - paidCents - patientCents],
          ...(patientCents > 0 ? [['PR', '2', patientCents] as [string, string, number]] : []),
        ],
      },
    ]);

  it('puts what the secondary pays beyond the open share in unapplied payments (the primary denied, no PR)', async () => {
    const { north, db } = handle;
    const receivableBefore = await accountBalance(north.clinicId, 'assets:patient-receivable');
    const primary = await createClaim(db, north);
    await ingest(
      north.clinicId,
      x12Of(
        remittanceOf([
          claimPayment(primary.id, '4', [
            { procedureCode: '99213', chargeCents: 15_000, adjustments: [['PI', '50', 15_000]] },
          ]),
        ]),
      ),
    );
    const secondary = await createClaim(db, north, { patientId: primary.patientId, primaryClaimId: primary.id });
    const { remittances } = await ingest(north.clinicId, x12Of(remittanceOf([secondaryPayment(secondary.id, 5_000)])));
    expect(await postingOf(north.clinicId, remittances[0]!.remittanceId, 1)).toEqual({
      'assets:era-clearing': 5_000,
      'liabilities:unapplied-payments': -5_000,
    });
    expect(await accountBalance(north.clinicId, 'assets:patient-receivable')).toBe(receivableBefore);
    expect(await db.patientBill.count({ where: { patientId: primary.patientId } })).toBe(0);
    expect(await totalsOf(secondary.id)).toMatchObject({ status: 'paid', paidCents: 5_000 });
  });

  it('applies it to what the patient has not paid yet, the rest unapplied; its reversal takes back the same way', async () => {
    const { north, db } = handle;
    const balances = async () => ({
      receivable: await accountBalance(north.clinicId, 'assets:patient-receivable'),
      unapplied: await accountBalance(north.clinicId, 'liabilities:unapplied-payments'),
    });
    const start = await balances();
    const primary = await createClaim(db, north);
    await ingest(north.clinicId, x12Of(remittanceOf([claimPayment(primary.id, '1', lines)])));
    const bill = (await billOf(primary.id))!;
    expect(bill.amountCents).toBe(2_500);
    await db.$transaction((tx) => payBill(tx, north.clinicId, bill.id, 1_000));

    const secondary = await createClaim(db, north, { patientId: primary.patientId, primaryClaimId: primary.id });
    const payment = secondaryPayment(secondary.id, 2_000, 500);
    const { remittances } = await ingest(north.clinicId, x12Of(remittanceOf([payment])));
    expect(await postingOf(north.clinicId, remittances[0]!.remittanceId, 1)).toEqual({
      'assets:era-clearing': 2_000,
      'assets:patient-receivable': -1_500,
      'liabilities:unapplied-payments': -500,
    });
    expect(await billOf(primary.id)).toMatchObject({ amountCents: 1_000, paidCents: 1_000, status: 'paid' });
    // 25.00 billed, 10.00 paid by the patient, 15.00 by the secondary: the patient owes nothing; 5.00 is unapplied.
    expect(await balances()).toEqual({ receivable: start.receivable, unapplied: start.unapplied - 500n });

    // The secondary reverses its payment (beside another claim's payment, so BPR02 is not negative).
    const other = await createClaim(db, north);
    const reversed = await ingest(
      north.clinicId,
      x12Of(remittanceOf([reversalOf(payment), claimPayment(other.id, '1', lines)])),
    );
    expect(await postingOf(north.clinicId, reversed.remittances[0]!.remittanceId, 1)).toEqual({
      'assets:era-clearing': -2_000,
      'assets:patient-receivable': 1_500,
      'liabilities:unapplied-payments': 500,
    });
    expect(await billOf(primary.id)).toMatchObject({ amountCents: 2_500, paidCents: 1_000, status: 'open' });
    // The patient owes 15.00 again (25.00 less the 10.00 paid, the other claim's 25.00 aside); nothing unapplied.
    expect(await balances()).toEqual({ receivable: start.receivable + 1_500n + 2_500n, unapplied: start.unapplied });
    expect(await unbalancedTransactions()).toEqual([]);
  });
});

describe('a patient payment committing while an 835 posts', () => {
  it("is not overwritten: the bill's status follows what is paid of it once both commit", async () => {
    const { north, db } = handle;
    const claim = await createClaim(db, north);
    const payment = claimPayment(claim.id, '1', lines);
    await ingest(north.clinicId, x12Of(remittanceOf([payment])));
    const bill = (await billOf(claim.id))!;
    // The payer corrects its payment: the patient's share drops from 25.00 to 10.00.
    const corrected = claimPayment(claim.id, '1', [
      {
        procedureCode: '99213',
        chargeCents: 15_000,
        adjustments: [
          ['CO', '45', 2_500],
          ['PR', '1', 1_000],
        ],
      },
    ]);

    // The patient pays 10.00; the payment's transaction holds the bill's row until the 835's posting waits on it.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let paymentWritten = false;
    const patientPayment = db.$transaction(
      async (tx) => {
        expect(await payBill(tx, north.clinicId, bill.id, 1_000)).toBe(true);
        paymentWritten = true;
        await released;
      },
      { timeout: 30_000 },
    );
    await until(() => paymentWritten);
    const posting = ingest(north.clinicId, x12Of(remittanceOf([reversalOf(payment), corrected])));
    await until(async () => {
      const [row] = await db.$queryRawUnsafe<{ waiting: number }[]>(
        `SELECT COUNT(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return row!.waiting > 0;
    });
    release();
    await patientPayment;
    await posting;

    expect(await db.patientBill.findUniqueOrThrow({ where: { id: bill.id } })).toMatchObject({
      amountCents: 1_000,
      paidCents: 1_000,
      status: 'paid',
    });
  });
});

/** Polls until the condition holds (at most 10 s). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('an interchange posts whole or not at all', () => {
  it('posts nothing of its first 835 when its second is refused while posting', async () => {
    const { north, db } = handle;
    const [a, b] = [await createClaim(db, north), await createClaim(db, north)];
    const before = await snapshot(north.clinicId);
    // The second 835 names a sent claim (the check before posting passes), and its PR would take the patient's bill
    // past what a bill can hold: refused while posting, after the first 835 was written.
    const huge = 2_200_000_000;
    const x12 = interchangeOf([
      remittanceOf([claimPayment(a.id, '1', lines)]),
      remittanceOf([
        claimPayment(b.id, '1', [{ procedureCode: '99213', chargeCents: huge, adjustments: [['PR', '1', huge]] }]),
      ]),
    ]);
    await expect(ingest(north.clinicId, x12)).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      message: `The patient's bill for claim "${b.id}" would exceed 2147483647 cents; nothing was posted`,
    });
    expect(await snapshot(north.clinicId)).toEqual(before);
  });
});

describe('an 835 reusing the payer id and TRN02 of one already posted', () => {
  it('is refused (422) when its content differs, and answered as a copy when it is the same 835 re-sent', async () => {
    const { north, db } = handle;
    const [a, b] = [await createClaim(db, north), await createClaim(db, north)];
    const first = remittanceOf([claimPayment(a.id, '1', lines)], { traceNumber: 'EFT-REUSED-1' });
    const posted = (await ingest(north.clinicId, x12Of(first))).remittances[0]!;

    const before = await snapshot(north.clinicId);
    const other = remittanceOf([claimPayment(b.id, '1', lines)], { traceNumber: 'EFT-REUSED-1' });
    await expect(ingest(north.clinicId, x12Of(other))).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      message:
        'An 835 from payer "60054" with trace number (TRN02) "EFT-REUSED-1" was posted before with different content; ' +
        'nothing was posted (a corrected remittance carries a trace number of its own)',
    });
    expect(await snapshot(north.clinicId)).toEqual(before);

    // The same 835 under other delimiters and line breaks: a copy.
    const resent = build835(first, { element: '|', repetition: '^', component: '>', segment: '~' }, '\r\n');
    expect(resent).not.toBe(x12Of(first));
    expect((await ingest(north.clinicId, resent)).remittances).toEqual([{ ...posted, duplicate: true }]);
    expect((await ingest(north.clinicId, x12Of(first))).remittances).toEqual([{ ...posted, duplicate: true }]);
    expect(await snapshot(north.clinicId)).toEqual(before);
  });
  it('tells a copy from another 835 for an interchange larger than one bound piece too (its text staged)', async () => {
    const { north, db } = handle;
    const [a, b] = [await createClaim(db, north), await createClaim(db, north)];
    const pad = (x12: string) =>
      x12
        .replace('LX*1~', `PER*BL*${'A'.repeat(70_000)}~\nLX*1~`)
        .replace(/SE\*(\d+)\*/, (_m, n) => `SE*${Number(n) + 1}*`);
    const first = pad(x12Of(remittanceOf([claimPayment(a.id, '1', lines)], { traceNumber: 'EFT-LARGE-1' })));
    const posted = (await ingest(north.clinicId, first)).remittances[0]!;
    const before = await snapshot(north.clinicId);
    expect((await ingest(north.clinicId, first)).remittances).toEqual([{ ...posted, duplicate: true }]);
    const other = pad(x12Of(remittanceOf([claimPayment(b.id, '1', lines)], { traceNumber: 'EFT-LARGE-1' })));
    await expect(ingest(north.clinicId, other)).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      message: expect.stringMatching(
        /^An 835 from payer "60054" with trace number \(TRN02\) "EFT-LARGE-1" was posted before/,
      ),
    });
    expect(await snapshot(north.clinicId)).toEqual(before);
  });
});
