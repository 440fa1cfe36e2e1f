// checkEligibility against answers a well-behaved payer never sends: someone else's 271, a TA1, garbage.
// Each must read `unknown` (never active, never cached). Real database (in-memory PGlite, migrated), real
// 270 builder and 271 reader; the payer port answers with checked-in fixture files.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db';
import { checkEligibility, eligibilityCacheKey, type EligibilityInquiry } from './check-eligibility';
import { batchCheckStore } from './eligibility-check-store';
import type { PayerTransport } from './payer-transport';

const fixture = (name: string) =>
  fs.readFileSync(path.join(import.meta.dirname, '..', 'x12', 'fixtures', name), 'utf8');
const ACTIVE_PPO = fixture('271-subscriber-ppo.x12'); // active on 2025-03-01, echoes trace TRACE0001
const clock = () => new Date('2025-03-01T15:00:00Z');

/** A payer that answers every 270 with `answer(ourTrace)`. */
function payerAnswering(answer: (trace: string) => string): PayerTransport & { calls: number } {
  const payer = {
    mode: 'live' as const,
    calls: 0,
    async send(x12: string) {
      payer.calls += 1;
      const trace = /TRN\*1\*([^*~]+)/.exec(x12)![1]!;
      return answer(trace);
    },
  };
  return payer;
}

let db: Db;
let n = 0;
beforeAll(async () => {
  db = await openDb({ kind: 'pglite', dataDir: 'memory://' });
});
afterAll(async () => {
  await db?.$disconnect();
});

function inquiry(): EligibilityInquiry {
  n += 1;
  return {
    clinicId: 'clinic_unit',
    userId: 'user_unit',
    patientId: `pat_unit_${n}`,
    correlationId: `corr-unit-000${n}`,
    payer: { id: '60054', name: 'Aetna' },
    provider: { npi: '1234567893', name: 'Unit Clinic' },
    subscriber: { memberId: 'W123456789', firstName: 'JANE', lastName: 'DOE', birthDate: '1980-01-02' },
    serviceTypeCodes: ['30'],
    dateOfService: '2025-03-01',
    coverage: { memberId: 'W123456789', payerId: '60054' },
  };
}

const config = { eligibilityCore: undefined };

describe('checkEligibility', () => {
  it('reads an active 271 that echoes our trace number as active, and serves the repeat from the cache', async () => {
    const payer = payerAnswering((trace) => ACTIVE_PPO.replace('TRN*2*TRACE0001', `TRN*2*${trace}`));
    const q = inquiry();
    const first = await checkEligibility({ db, clock, payer, config }, q);
    const second = await checkEligibility({ db, clock, payer, config }, q);
    expect(first.fields).toMatchObject({
      status: 'active',
      eligible: true,
      mode: 'live',
      cached: false,
      memberId: 'W123456789',
    });
    expect(second.fields).toEqual({ ...first.fields, cached: true });
    expect(payer.calls).toBe(1);
  });

  it('compares each answer with the coverage on file as it is then, a cached answer included', async () => {
    const payer = payerAnswering((trace) => ACTIVE_PPO.replace('TRN*2*TRACE0001', `TRN*2*${trace}`));
    const q = inquiry();
    const first = await checkEligibility(
      { db, clock, payer, config },
      { ...q, coverage: { memberId: ' w123456789 ', payerId: '60054' } },
    );
    expect(first.fields).toMatchObject({ cached: false, coverageOnFile: 'match' });
    const [row] = await db.eligibilityCheck.findMany({ where: { patientId: q.patientId } });
    expect(row).toMatchObject({ memberId: 'W123456789', coverageOnFile: 'match' });
    expect(row!.result).not.toHaveProperty('coverageOnFile');
    // The coverage on file changed since: the same cached answer no longer matches it.
    const changed = await checkEligibility(
      { db, clock, payer, config },
      { ...q, coverage: { memberId: 'W999999999', payerId: '60054' } },
    );
    expect(changed.fields).toMatchObject({ cached: true, coverageOnFile: 'mismatch' });
    const otherPayer = await checkEligibility(
      { db, clock, payer, config },
      { ...q, coverage: { memberId: 'W123456789', payerId: '87726' } },
    );
    expect(otherPayer.fields).toMatchObject({ cached: true, coverageOnFile: 'mismatch' });
    const selfPay = await checkEligibility(
      { db, clock, payer, config },
      { ...q, coverage: { memberId: null, payerId: null } },
    );
    expect(selfPay.fields).toMatchObject({ cached: true, coverageOnFile: 'none' });
    expect(payer.calls).toBe(1);
  });

  it("never lets a 271 carrying someone else's trace number speak for this member", async () => {
    const payer = payerAnswering(() => ACTIVE_PPO); // TRACE0001, not ours
    const q = inquiry();
    const { fields, evidence } = await checkEligibility({ db, clock, payer, config }, q);
    expect(fields).toMatchObject({
      status: 'unknown',
      eligible: false,
      planName: null,
      network: 'UNKNOWN',
      deductible: { individual: null, met: null, remaining: null },
      rejection: {
        reasonCode: 'TRACE_MISMATCH',
        followUpCode: null,
        loop: null,
        reason: expect.any(String),
        followUp: expect.any(String),
      },
    });
    expect(evidence).toEqual({});
    const rows = await db.eligibilityCheck.findMany({ where: { patientId: q.patientId } });
    expect(rows.map((r) => [r.status, r.eligible, r.cacheable])).toEqual([['unknown', false, false]]);
    await checkEligibility({ db, clock, payer, config }, q);
    expect(payer.calls).toBe(2); // not cached: asked again
  });

  it('accepts a 271 that carries no trace number at all', async () => {
    const payer = payerAnswering(() =>
      ACTIVE_PPO.replace(/TRN\*2\*TRACE0001\*[^~]*~\n?/, '').replace(
        /SE\*(\d+)\*/,
        (_m, c: string) => `SE*${Number(c) - 1}*`,
      ),
    );
    const { fields } = await checkEligibility({ db, clock, payer, config }, inquiry());
    expect(fields.status).toBe('active');
  });

  it.each([
    ['a TA1 interchange rejection', 'ta1-rejected.x12', 'TA1'],
    ['a 999 acknowledgment', '999-rejected.x12', '999'],
    ['something that is not X12', 'not-x12.txt', 'UNREADABLE'],
    ['a truncated 271', '271-truncated.x12', 'UNREADABLE'],
  ])('reads %s as unknown with reason code %s, not cached', async (_name, file, reasonCode) => {
    const payer = payerAnswering(() => fixture(file));
    const q = inquiry();
    const { fields } = await checkEligibility({ db, clock, payer, config }, q);
    expect(fields).toMatchObject({
      status: 'unknown',
      eligible: false,
      memberId: 'W123456789',
      rejection: { reasonCode, loop: null },
    });
    const rows = await db.eligibilityCheck.findMany({ where: { patientId: q.patientId } });
    expect(rows.map((r) => [r.status, r.cacheable])).toEqual([['unknown', false]]);
  });

  it('keys the cache on every part of the question: another NPI, date of service or service type asks again', async () => {
    const payer = payerAnswering((trace) => ACTIVE_PPO.replace('TRN*2*TRACE0001', `TRN*2*${trace}`));
    const q = inquiry();
    await checkEligibility({ db, clock, payer, config }, q);
    await checkEligibility({ db, clock, payer, config }, { ...q, provider: { ...q.provider, npi: '1497758544' } });
    await checkEligibility({ db, clock, payer, config }, { ...q, dateOfService: '2025-03-02' });
    await checkEligibility({ db, clock, payer, config }, { ...q, serviceTypeCodes: ['98'] });
    await checkEligibility(
      { db, clock, payer, config },
      { ...q, subscriber: { ...q.subscriber, birthDate: '1980-01-03' } },
    );
    expect(payer.calls).toBe(5);
    // 24 h later the cached answer has expired.
    const later = () => new Date(clock().getTime() + 24 * 60 * 60 * 1000 + 1);
    const again = await checkEligibility({ db, clock: later, payer, config }, q);
    expect(again.fields.cached).toBe(false);
    expect(payer.calls).toBe(6);
  });

  it("records a roster's rows in batches exactly as Prisma reads them, and answers the batch's cache from one query", async () => {
    const payer = payerAnswering((trace) => ACTIVE_PPO.replace('TRN*2*TRACE0001', `TRN*2*${trace}`));
    const inquiries = [inquiry(), inquiry(), inquiry()];
    const lookups = inquiries.map((q) => ({ cacheKey: eligibilityCacheKey(q), patientId: q.patientId }));
    const store = await batchCheckStore(db, { clinicId: 'clinic_unit', mode: 'live', now: clock(), lookups });
    const outcomes = await Promise.all(inquiries.map((q) => checkEligibility({ db, clock, payer, config }, q, store)));
    const rows = await db.eligibilityCheck.findMany({
      where: { patientId: { in: inquiries.map((q) => q.patientId) } },
    });
    expect(rows).toHaveLength(3);
    for (const [i, q] of inquiries.entries()) {
      const row = rows.find((r) => r.patientId === q.patientId)!;
      expect(row).toMatchObject({
        clinicId: 'clinic_unit',
        patientId: q.patientId,
        userId: 'user_unit',
        cacheKey: lookups[i]!.cacheKey,
        payerId: '60054',
        memberId: 'W123456789',
        coverageOnFile: 'match',
        serviceType: '30',
        dateOfService: '2025-03-01',
        status: 'active',
        eligible: true,
        mode: 'live',
        cacheable: true,
        correlationId: q.correlationId,
        createdAt: clock(),
      });
      expect(row.result).toMatchObject({ status: 'active', memberId: 'W123456789', evidence: outcomes[i]!.evidence });
    }
    // The next roster over the same patients is answered from one query, without the payer.
    const calls = payer.calls;
    const again = await batchCheckStore(db, { clinicId: 'clinic_unit', mode: 'live', now: clock(), lookups });
    const cached = await Promise.all(inquiries.map((q) => checkEligibility({ db, clock, payer, config }, q, again)));
    expect(cached.map((c) => c.fields)).toEqual(outcomes.map((o) => ({ ...o.fields, cached: true })));
    expect(payer.calls).toBe(calls);
  });
});
