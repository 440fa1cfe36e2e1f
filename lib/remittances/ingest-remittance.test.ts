// Posting 835s against a real PostgreSQL database (no app): the ledger stays balanced for any valid 835 and a
// second copy changes nothing (property tests), the worked example of docs/remittances.md in cents, reversal then
// corrected claim, PLB, the patient's bill, claim states, tenancy and the 422 reasons.
import fs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setUpTwoClinicDb } from '@/test/support/test-db';
import {
  claimPayment,
  createClaim,
  interchangeOf,
  ledgerBalance,
  remittanceArbitrary,
  remittanceOf,
  reversalOf,
  x12Of,
  type LineSpec,
} from '@/test/support/remittances';
import { ingestRemittance } from './ingest-remittance';
import { textPieces } from './post-remittance';

const EMPTY_835 = fs.readFileSync('lib/x12/fixtures/835-empty.x12', 'utf8');
const handle = setUpTwoClinicDb();
const clock = () => new Date('2026-11-23T12:00:00Z');
const deps = () => ({ db: handle.db, clock });
const ingest = (clinicId: string, x12: string) =>
  ingestRemittance(deps(), { clinicId, x12, source: 'upload', correlationId: 'test' });

/** Everything a posting could touch, counted, plus each claim's amounts: equal snapshots mean nothing changed. */
async function snapshot(clinicId: string) {
  const { db } = handle;
  const [ledger, entries, remittances, remittanceClaims, bills, events, transmissions, claims] = await Promise.all([
    db.ledgerTransaction.count({ where: { clinicId } }),
    db.ledgerEntry.count({ where: { transaction: { clinicId } } }),
    db.remittance.count({ where: { clinicId } }),
    db.remittanceClaim.count({ where: { clinicId } }),
    db.patientBill.findMany({ where: { clinicId }, orderBy: { id: 'asc' } }),
    db.claimEvent.count({ where: { clinicId } }),
    db.claimTransmission.count({ where: { clinicId } }),
    db.claim.findMany({
      where: { clinicId },
      orderBy: { id: 'asc' },
      include: { lines: { orderBy: { position: 'asc' } } },
    }),
  ]);
  return { ledger, entries, remittances, remittanceClaims, bills, events, transmissions, claims };
}

async function unbalancedTransactions(): Promise<unknown[]> {
  return handle.db.$queryRawUnsafe(
    `SELECT "transactionId", SUM("amountCents")::text AS s FROM "LedgerEntry" GROUP BY 1 HAVING SUM("amountCents") <> 0`,
  );
}

const accountBalance = (clinicId: string, account: string, reference?: string) =>
  ledgerBalance(handle.db, clinicId, account, reference);

/** The claim's 837P went out (what makes a closed claim one that was sent). */
async function recordSent(clinicId: string, claimId: string) {
  await handle.db.claimTransmission.create({
    data: {
      clinicId,
      claimId,
      direction: 'out',
      kind: '837P',
      controlNumber: '1',
      x12: 'ISA*...',
      correlationId: 'test',
      at: clock(),
    },
  });
}

describe('ingestRemittance properties', () => {
  it('posts any valid 835 as balanced ledger transactions, era-clearing holding what its posted CLPs paid less the PLB; a second copy changes nothing', async () => {
    const { north, db } = handle;
    const claims = [await createClaim(handle.db, north), await createClaim(handle.db, north)];
    await fc.assert(
      fc.asyncProperty(remittanceArbitrary(claims.map((c) => c.id)), async (remittance) => {
        const x12 = x12Of(remittance);
        const before = await snapshot(north.clinicId);
        let first;
        try {
          first = await ingest(north.clinicId, x12);
        } catch (error) {
          // Every CLP was one its claim could not take (a reversal of what was never posted, ...): refused whole.
          expect(error).toMatchObject({ code: 'UNPROCESSABLE', message: /has no CLP its claim can take/ });
          expect(await snapshot(north.clinicId)).toEqual(before);
          return;
        }
        expect(first.remittances).toHaveLength(1);
        const posted = first.remittances[0]!;
        expect(posted.duplicate).toBe(false);
        expect(await unbalancedTransactions()).toEqual([]);
        const kept = await db.remittanceClaim.findMany({ where: { remittanceId: posted.remittanceId } });
        const paidByPosted = kept.filter((c) => c.posting === 'posted').reduce((t, c) => t + c.paidCents, 0n);
        const plb = remittance.providerAdjustments.reduce((t, a) => t + BigInt(a.amountCents), 0n);
        expect(await accountBalance(north.clinicId, 'assets:era-clearing', `remittance:${posted.remittanceId}%`)).toBe(
          paidByPosted - plb,
        );
        // A bill never holds less than nothing, and no later payer leaves a claim's unapplied money below zero.
        expect(await db.patientBill.count({ where: { clinicId: north.clinicId, amountCents: { lt: 0 } } })).toBe(0);
        expect(await accountBalance(north.clinicId, 'liabilities:unapplied-payments')).toBeLessThanOrEqual(0n);

        const afterFirst = await snapshot(north.clinicId);
        const second = await ingest(north.clinicId, x12);
        expect(second.remittances).toEqual([{ ...posted, duplicate: true }]);
        expect(await snapshot(north.clinicId)).toEqual(afterFirst);
      }),
      { numRuns: 30 },
    );
  });
});

describe('ingestRemittance posting', () => {
  it('posts the worked example: payment, CO, PR to a new bill, claim paid, lines paid, codes kept', async () => {
    const { north, db } = handle;
    const claim = await createClaim(db, north);
    const remittance = remittanceOf([
      claimPayment(claim.id, '1', [
        {
          procedureCode: '99213',
          chargeCents: 15_000,
          adjustments: [
            ['CO', '45', 4_025],
            ['PR', '1', 5_000],
            ['PR', '2', 1_195],
          ],
        },
        { procedureCode: '81002', chargeCents: 10_000, adjustments: [['CO', '45', 6_000]] },
      ]),
    ]);
    expect(remittance.paymentCents).toBe(8_780);
    const { remittances } = await ingest(north.clinicId, x12Of(remittance));
    const ref = `remittance:${remittances[0]!.remittanceId}%`;
    expect(await accountBalance(north.clinicId, 'assets:era-clearing', ref)).toBe(8_780n);
    expect(await accountBalance(north.clinicId, 'expenses:contractual-adjustments', ref)).toBe(10_025n);
    expect(await accountBalance(north.clinicId, 'assets:patient-receivable', ref)).toBe(6_195n);
    expect(await accountBalance(north.clinicId, 'assets:claims-receivable', ref)).toBe(-25_000n);
    // The charge is booked once, so the claim's receivable nets to zero.
    expect(await accountBalance(north.clinicId, 'assets:claims-receivable', `claim:${claim.id}`)).toBe(25_000n);

    const row = await db.claim.findUniqueOrThrow({
      where: { id: claim.id },
      include: { lines: { orderBy: { position: 'asc' } } },
    });
    expect(row).toMatchObject({
      status: 'paid',
      paidCents: 8_780n,
      patientResponsibilityCents: 6_195n,
      adjustmentCents: 10_025n,
    });
    expect(row.lines.map((l) => l.paidCents)).toEqual([4_780n, 4_000n]);
    const bill = await db.patientBill.findFirstOrThrow({ where: { claimId: claim.id } });
    expect(bill).toMatchObject({
      clinicId: north.clinicId,
      patientId: claim.patientId,
      amountCents: 6_195,
      status: 'open',
    });
    const stored = await db.remittanceClaim.findFirstOrThrow({ where: { claimId: claim.id } });
    expect(stored.adjustments).toContainEqual({
      group: 'CO',
      reason: '45',
      amountCents: 4_025,
      description: 'Charge exceeds fee schedule/maximum allowable or contracted/legislated fee arrangement.',
      line: 1,
    });
    expect(await db.claimTransmission.count({ where: { claimId: claim.id, kind: '835', direction: 'in' } })).toBe(1);
  });

  it('denies with CLP02 4 and keeps the CARC and RARC in words', async () => {
    const { north, db } = handle;
    const claim = await createClaim(db, north);
    const remittance = remittanceOf([
      claimPayment(claim.id, '4', [
        { procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '50', 15_000]] },
        { procedureCode: '81002', chargeCents: 10_000, adjustments: [['CO', '50', 10_000]] },
      ]),
    ]);
    const x12 = x12Of(remittance)
      .replace('NM1*QC', 'MOA***N130~\nNM1*QC')
      .replace(/SE\*(\d+)\*/, (_m, n) => `SE*${Number(n) + 1}*`);
    await ingest(north.clinicId, x12);
    const row = await db.claim.findUniqueOrThrow({ where: { id: claim.id } });
    expect(row.status).toBe('denied');
    expect(row.statusReason).toBe(
      "CO-50: These are non-covered services because this is not deemed a 'medical necessity' by the payer.",
    );
    const stored = await db.remittanceClaim.findFirstOrThrow({ where: { claimId: claim.id } });
    expect(stored.adjustments).toContainEqual({
      group: 'RARC',
      reason: 'N130',
      amountCents: 0,
      description: 'Consult plan benefit documents/guidelines for information about restrictions for this service.',
      line: null,
    });
  });

  it('posts a reversal exactly opposite to what it names, then the corrected claim of the same 835 after it', async () => {
    const { north, db } = handle;
    const claim = await createClaim(db, north);
    const original = claimPayment(claim.id, '1', [
      {
        procedureCode: '99213',
        chargeCents: 15_000,
        adjustments: [
          ['CO', '45', 4_025],
          ['PR', '1', 6_195],
        ],
      },
      { procedureCode: '81002', chargeCents: 10_000, adjustments: [['CO', '45', 6_000]] },
    ]);
    await ingest(north.clinicId, x12Of(remittanceOf([original])));
    const corrected = claimPayment(claim.id, '1', [
      {
        procedureCode: '99213',
        chargeCents: 15_000,
        adjustments: [
          ['CO', '45', 4_025],
          ['PR', '1', 3_195],
        ],
      },
      { procedureCode: '81002', chargeCents: 10_000, adjustments: [['CO', '45', 6_000]] },
    ]);
    const second = remittanceOf([reversalOf(original), corrected], {
      providerAdjustments: [
        { reason: 'L6', reference: 'INT1', amountCents: -75 as never },
        { reason: 'WO', reference: 'OVP9', amountCents: 1_500 as never },
      ],
    });
    expect(second.paymentCents).toBe(3_000 + 75 - 1_500);
    const { remittances } = await ingest(north.clinicId, x12Of(second));
    const ref = `remittance:${remittances[0]!.remittanceId}%`;
    expect(await accountBalance(north.clinicId, 'assets:era-clearing', ref)).toBe(BigInt(second.paymentCents));
    expect(await accountBalance(north.clinicId, 'revenue:payer-interest', ref)).toBe(-75n);
    expect(await accountBalance(north.clinicId, 'liabilities:payer-recoupments', ref)).toBe(1_500n);
    const row = await db.claim.findUniqueOrThrow({
      where: { id: claim.id },
      include: { lines: { orderBy: { position: 'asc' } } },
    });
    expect(row).toMatchObject({
      status: 'paid',
      paidCents: BigInt(corrected.paidCents),
      patientResponsibilityCents: 3_195n,
    });
    expect(row.lines.map((l) => l.paidCents)).toEqual([7_780n, 4_000n]);
    expect((await db.patientBill.findFirstOrThrow({ where: { claimId: claim.id } })).amountCents).toBe(3_195);
    const kinds = await db.claimEvent.findMany({
      where: { claimId: claim.id },
      orderBy: { at: 'asc' },
      select: { kind: true, toStatus: true },
    });
    expect(kinds).toEqual([
      { kind: 'payment', toStatus: 'paid' },
      { kind: 'reversal', toStatus: 'accepted' },
      { kind: 'payment', toStatus: 'paid' },
    ]);
  });

  it('marks a claim partially paid when a line is denied', async () => {
    const { north, db } = handle;
    const claim = await createClaim(db, north);
    await ingest(
      north.clinicId,
      x12Of(
        remittanceOf([
          claimPayment(claim.id, '1', [
            { procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '45', 5_000]] },
            { procedureCode: '81002', chargeCents: 10_000, adjustments: [['CO', '97', 10_000]] },
          ]),
        ]),
      ),
    );
    expect((await db.claim.findUniqueOrThrow({ where: { id: claim.id } })).status).toBe('partially_paid');
  });

  it("keeps the whole 835 on a claim's transmissions when small, and only the claim's CLP loop when large", async () => {
    const { north, db } = handle;
    const [small, large] = [await createClaim(db, north), await createClaim(db, north)];
    const lines: LineSpec[] = [{ procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '45', 5_000]] }];
    const smallX12 = x12Of(remittanceOf([claimPayment(small.id, '1', lines)]));
    await ingest(north.clinicId, smallX12);
    const padded = x12Of(remittanceOf([claimPayment(large.id, '1', lines)]))
      .replace('LX*1~', `PER*BL*${'A'.repeat(70_000)}~\nLX*1~`)
      .replace(/SE\*(\d+)\*/, (_m, n) => `SE*${Number(n) + 1}*`);
    await ingest(north.clinicId, padded);
    const kept = async (claimId: string) =>
      (await db.claimTransmission.findFirstOrThrow({ where: { claimId, kind: '835' } })).x12;
    expect(await kept(small.id)).toBe(smallX12);
    const excerpt = await kept(large.id);
    expect(excerpt.startsWith(`CLP*${large.id}*1*150*100*`)).toBe(true);
    expect(excerpt).toContain('SVC*HC:99213*150*100');
    expect(excerpt).not.toContain('PER*BL');
    expect((await db.remittance.findFirstOrThrow({ where: { claims: { some: { claimId: large.id } } } })).x12).toBe(
      padded,
    );
  });

  it('stores an interchange longer than one bound piece exactly as received, on each of its 835s', async () => {
    const { north, db } = handle;
    const [a, b] = [await createClaim(db, north), await createClaim(db, north)];
    const lines: LineSpec[] = [{ procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '45', 5_000]] }];
    const both = interchangeOf([
      remittanceOf([claimPayment(a.id, '1', lines)]),
      remittanceOf([claimPayment(b.id, '1', lines)]),
    ]);
    // Padding puts an emoji's surrogate pair across the first 1 MiB piece boundary (post-remittance.ts).
    const at = both.indexOf('LX*1~') + 'PER*BL*'.length;
    const filler = `${'A'.repeat(1024 * 1024 - 1 - at)}🩺${'B'.repeat(300_000)}`;
    const padded = both
      .replace('LX*1~', `PER*BL*${filler}~\nLX*1~`)
      .replace(/SE\*(\d+)\*/, (_m, n) => `SE*${Number(n) + 1}*`);
    expect(padded.charCodeAt(1024 * 1024 - 1)).toBe(0xd83e);
    const result = await ingest(north.clinicId, padded);
    expect(result.remittances.map((r) => [r.duplicate, r.claimsPosted])).toEqual([
      [false, 1],
      [false, 1],
    ]);
    const stored = await db.remittance.findMany({
      where: { id: { in: result.remittances.map((r) => r.remittanceId) } },
    });
    expect(stored.map((r) => r.x12 === padded)).toEqual([true, true]);
  });

  it('posts every 835 of an interchange', async () => {
    const { north, db } = handle;
    const [a, b] = [await createClaim(db, north), await createClaim(db, north)];
    const lines = [
      { procedureCode: '99213', chargeCents: 15_000, adjustments: [['CO', '45', 5_000]] as [string, string, number][] },
    ];
    const both = interchangeOf([
      remittanceOf([claimPayment(a.id, '1', lines)]),
      remittanceOf([claimPayment(b.id, '1', lines)]),
    ]);
    const result = await ingest(north.clinicId, both);
    expect(result.remittances.map((r) => [r.duplicate, r.claimsPosted])).toEqual([
      [false, 1],
      [false, 1],
    ]);
  });
});

describe('ingestRemittance refusals: 422 and nothing posted', () => {
  it.each([
    ['an empty 835 (no CLP)', () => EMPTY_835, /cannot be posted: 835 "0001" is empty/],
    [
      'an unbalanced 835',
      (x12: string) => x12.replace('BPR*I*100*', 'BPR*I*101*'),
      /does not balance: transaction rule/,
    ],
    ['text that is not X12', () => 'hello', /not X12/],
  ])('refuses %s', async (_label, mangle, message) => {
    const { north, db } = handle;
    const claim = await createClaim(db, north);
    const x12 = x12Of(
      remittanceOf([claimPayment(claim.id, '1', [{ procedureCode: '99213', chargeCents: 10_000, adjustments: [] }])]),
    );
    const before = await snapshot(north.clinicId);
    await expect(ingest(north.clinicId, mangle(x12))).rejects.toMatchObject({ code: 'UNPROCESSABLE', message });
    expect(await snapshot(north.clinicId)).toEqual(before);
  });

  it("posts nothing for an 835 naming another clinic's claim, in either clinic, and says so without telling whose", async () => {
    const { north, south, db } = handle;
    const theirs = await createClaim(db, south);
    const lines = [{ procedureCode: '99213', chargeCents: 10_000, adjustments: [] }];
    const beforeNorth = await snapshot(north.clinicId);
    const beforeSouth = await snapshot(south.clinicId);
    await expect(
      ingest(north.clinicId, x12Of(remittanceOf([claimPayment(theirs.id, '1', lines)]))),
    ).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      message: `The 835 names no claim of this clinic (CLP01 "${theirs.id}"); nothing was posted`,
    });
    expect(await snapshot(north.clinicId)).toEqual(beforeNorth);
    expect(await snapshot(south.clinicId)).toEqual(beforeSouth);
  });
});

// DECISIONS "Money in" (ruled 2026-11-28): a CLP posts only to a transmitted claim; the rest are kept `unmatched`.
describe('ingestRemittance: CLPs naming no transmitted claim are kept unmatched and post nowhere', () => {
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

  it('posts the sent claim, keeps the draft and the unknown id unmatched with their amounts, and leaves the draft alone', async () => {
    const { north, db } = handle;
    const sent = await createClaim(db, north);
    const draft = await createClaim(db, north, { status: 'draft' });
    const draftBefore = await db.claim.findUniqueOrThrow({ where: { id: draft.id }, include: { lines: true } });
    const result = await ingest(
      north.clinicId,
      x12Of(
        remittanceOf([
          claimPayment(sent.id, '1', lines),
          claimPayment(draft.id, '1', lines),
          claimPayment('clm_nobody', '1', lines),
        ]),
      ),
    );
    expect(result.remittances[0]).toMatchObject({ duplicate: false, claimsPosted: 1, claimsUnmatched: 2 });
    const kept = await db.remittanceClaim.findMany({
      where: { remittanceId: result.remittances[0]!.remittanceId },
      orderBy: { position: 'asc' },
    });
    expect(kept.map((c) => [c.claimId, c.posting, c.paidCents, c.patientResponsibilityCents])).toEqual([
      [sent.id, 'posted', 10_000n, 2_500n],
      [draft.id, 'unmatched', 10_000n, 2_500n],
      ['clm_nobody', 'unmatched', 10_000n, 2_500n],
    ]);
    expect(kept[1]!.unmatchedReason).toBe('The claim was never sent to the payer (it is draft)');
    expect(kept[2]!.unmatchedReason).toBe('No claim of this clinic has this id');

    expect(await db.claim.findUniqueOrThrow({ where: { id: draft.id }, include: { lines: true } })).toEqual(
      draftBefore,
    );
    expect(await db.patientBill.count({ where: { claimId: draft.id } })).toBe(0);
    expect(await db.claimEvent.count({ where: { claimId: draft.id } })).toBe(0);
    expect(await db.claimTransmission.count({ where: { claimId: draft.id } })).toBe(0);
    expect(
      await db.ledgerTransaction.count({ where: { clinicId: north.clinicId, reference: `claim:${draft.id}` } }),
    ).toBe(0);
    // Only the sent claim's CLP reached the ledger: era-clearing holds its payment, not the 835's BPR02.
    const ledger = await db.ledgerTransaction.findMany({
      where: {
        id: {
          in: (await db.remittance.findFirstOrThrow({ where: { id: result.remittances[0]!.remittanceId } }))
            .ledgerTransactionIds,
        },
      },
      select: { kind: true, reference: true },
    });
    expect(ledger.map((t) => t.kind).sort()).toEqual(['claim.charge', 'remittance.claim']);
    expect(ledger.find((t) => t.kind === 'claim.charge')!.reference).toBe(`claim:${sent.id}`);
    expect(await unbalancedTransactions()).toEqual([]);
  });

  it.each([
    ['a draft', { status: 'draft' }],
    ['a claim being sent', { status: 'sending' }],
    ['a draft closed without being sent', { status: 'closed' }],
  ])('refuses (422) an 835 whose only CLP names %s, and posts nothing', async (_label, setup) => {
    const { north, db } = handle;
    const claim = await createClaim(db, north, setup);
    const before = await snapshot(north.clinicId);
    await expect(
      ingest(north.clinicId, x12Of(remittanceOf([claimPayment(claim.id, '1', lines)]))),
    ).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      message: `The 835 names no claim of this clinic that was sent to the payer (CLP01 "${claim.id}"); nothing was posted`,
    });
    expect(await snapshot(north.clinicId)).toEqual(before);
  });

  // DECISIONS "Claim lifecycle": money already posted to a voided or replaced (closed) claim moves only through a
  // reversal; a new payment naming it is kept for a person.
  it('keeps a payment to a closed claim that was sent unmatched, and posts its reversal', async () => {
    const { north, db } = handle;
    const claim = await createClaim(db, north);
    const other = await createClaim(db, north);
    await recordSent(north.clinicId, claim.id);
    const payment = claimPayment(claim.id, '1', lines);
    await ingest(north.clinicId, x12Of(remittanceOf([payment])));
    await db.claim.update({ where: { id: claim.id }, data: { status: 'closed', statusReason: 'Voided' } });
    const closed = await db.claim.findUniqueOrThrow({ where: { id: claim.id }, include: { lines: true } });

    const result = await ingest(
      north.clinicId,
      x12Of(remittanceOf([claimPayment(claim.id, '1', lines), claimPayment(other.id, '1', lines)])),
    );
    expect(result.remittances[0]).toMatchObject({ claimsPosted: 1, claimsUnmatched: 1 });
    const kept = await db.remittanceClaim.findFirstOrThrow({
      where: { remittanceId: result.remittances[0]!.remittanceId, claimId: claim.id },
    });
    expect(kept).toMatchObject({
      posting: 'unmatched',
      unmatchedReason:
        'The claim is closed (voided, replaced or written off): money on it moves only through a reversal (CLP02 22)',
    });
    expect(await db.claim.findUniqueOrThrow({ where: { id: claim.id }, include: { lines: true } })).toEqual(closed);

    // Its reversal posts: the money leaves the closed claim, which stays closed.
    await ingest(
      north.clinicId,
      x12Of(remittanceOf([reversalOf(payment), claimPayment((await createClaim(db, north)).id, '1', lines)])),
    );
    expect(await db.claim.findUniqueOrThrow({ where: { id: claim.id } })).toMatchObject({
      status: 'closed',
      paidCents: 0n,
      patientResponsibilityCents: 0n,
      adjustmentCents: 0n,
    });
    expect((await db.patientBill.findFirstOrThrow({ where: { claimId: claim.id } })).amountCents).toBe(0);
    expect(await unbalancedTransactions()).toEqual([]);
  });

  it('refuses (422) an 835 whose only CLP pays a closed claim, and posts nothing', async () => {
    const { north, db } = handle;
    const claim = await createClaim(db, north, { status: 'closed' });
    await recordSent(north.clinicId, claim.id);
    const before = await snapshot(north.clinicId);
    await expect(
      ingest(north.clinicId, x12Of(remittanceOf([claimPayment(claim.id, '1', lines)]))),
    ).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      message: `The 835 has no CLP its claim can take (CLP01 "${claim.id}": The claim is closed (voided, replaced or written off): money on it moves only through a reversal (CLP02 22)); nothing was posted`,
    });
    expect(await snapshot(north.clinicId)).toEqual(before);
  });
});

describe('textPieces', () => {
  it('cuts a text into pieces of at most the size that join back to it, never inside a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 1, max: 8 }), (text, size) => {
        const pieces = [...textPieces(text, size)];
        expect(pieces.join('')).toBe(text);
        expect(pieces.every((piece) => piece.length >= 1 && piece.length <= size)).toBe(true);
        // Only a piece of one character (size 1) may end in a high surrogate: there is no shorter cut.
        const endsInHighSurrogate = (piece: string) => (piece.charCodeAt(piece.length - 1) & 0xfc00) === 0xd800;
        expect(pieces.slice(0, -1).filter((piece) => piece.length > 1 && endsInHighSurrogate(piece))).toEqual([]);
      }),
    );
  });
});
