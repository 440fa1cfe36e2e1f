import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';
import { build270 } from '@/lib/x12/build-270';
import { readInterchange, type Segment } from '@/lib/x12/read-interchange';
import { readEligibility, type EligibilityFindings } from '@/lib/x12/read-eligibility';
import { sandboxPayer } from './sandbox-payer';

const now = new Date('2025-03-15T10:00:00Z');
const payer = sandboxPayer(() => now);

function inquiry(memberId: string, serviceTypeCode: string): string {
  return build270({
    interchangeControlNumber: 9,
    groupControlNumber: 9,
    transactionControlNumber: '0001',
    senderId: 'CLINIC',
    receiverId: 'SANDBOX',
    createdAt: now,
    payer: { id: '60054', name: 'AETNA' },
    provider: { npi: '1234567893', name: 'NORTHSIDE CLINIC' },
    subscriber: { memberId, firstName: 'JANE', lastName: 'DOE', birthDate: '1980-01-15' },
    serviceTypeCodes: [serviceTypeCode],
    dateOfService: '2025-03-15',
    traceNumber: 'T1',
  });
}

async function verify(memberId: string, serviceTypeCode = '30'): Promise<Omit<EligibilityFindings, 'evidence'>> {
  const answer = await payer.send(inquiry(memberId, serviceTypeCode), { correlationId: 'c1' });
  const { evidence: _evidence, ...fields } = readEligibility(answer, { dateOfService: '2025-03-15', serviceTypeCode });
  return fields;
}

const activePpo: Omit<EligibilityFindings, 'evidence'> = {
  status: 'active',
  eligible: true,
  rejection: null,
  memberId: 'DEMO-ACTIVE-N001',
  memberName: 'JANE DOE',
  planName: 'DEMO PPO',
  groupNumber: 'DEMO-GRP-001',
  deductible: { individual: 150000, met: 50000, remaining: 100000 },
  outOfPocket: { individual: 600000, met: 150000, remaining: 450000 },
  copay: { specialist: 5000, primaryCare: 2500 },
  coinsurance: 20,
  coverageStart: '2025-01-01',
  coverageEnd: null,
  priorAuthRequired: false,
  priorAuthCodes: [],
  network: 'IN',
};
const nothing = {
  planName: null,
  groupNumber: null,
  deductible: { individual: null, met: null, remaining: null },
  outOfPocket: { individual: null, met: null, remaining: null },
  copay: { specialist: null, primaryCare: null },
  coinsurance: null,
  coverageStart: null,
  coverageEnd: null,
  priorAuthRequired: false,
  priorAuthCodes: [],
  network: 'UNKNOWN' as const,
};

describe('sandboxPayer', () => {
  it('is in sandbox mode', () => {
    expect(payer.mode).toBe('sandbox');
  });

  it('answers any other member with the active PPO and its exact amounts', async () => {
    expect(await verify('DEMO-ACTIVE-N001')).toEqual(activePpo);
    expect(await verify('W000111')).toEqual({ ...activePpo, memberId: 'W000111' });
  });

  it('answers DEMO-INACTIVE with coverage that ended last month', async () => {
    expect(await verify('DEMO-INACTIVE-N002')).toEqual({
      ...nothing,
      status: 'inactive',
      eligible: false,
      rejection: null,
      memberId: 'DEMO-INACTIVE-N002',
      memberName: 'JANE DOE',
      planName: 'DEMO PPO',
      groupNumber: 'DEMO-GRP-001',
      coverageStart: '2024-03-01',
      coverageEnd: '2025-02-28',
    });
  });

  it('answers DEMO-PRIORAUTH with prior authorization on the requested type', async () => {
    expect(await verify('DEMO-PRIORAUTH-N003', '98')).toEqual({
      ...activePpo,
      memberId: 'DEMO-PRIORAUTH-N003',
      priorAuthRequired: true,
      priorAuthCodes: ['98'],
    });
  });

  it('answers DEMO-OON as active but out of network', async () => {
    expect(await verify('DEMO-OON-N004')).toEqual({ ...activePpo, memberId: 'DEMO-OON-N004', network: 'OUT' });
  });

  it('answers DEMO-NOTFOUND with AAA 75 in 2100C (unknown, not inactive)', async () => {
    expect(await verify('DEMO-NOTFOUND-N005')).toEqual({
      ...nothing,
      status: 'unknown',
      eligible: false,
      memberId: 'DEMO-NOTFOUND-N005',
      memberName: 'JANE DOE',
      rejection: {
        reasonCode: '75',
        reason: 'Subscriber/insured not found: the payer has no member matching this ID, name and date of birth',
        followUpCode: 'C',
        followUp: 'Please correct and resubmit',
        loop: '2100C',
      },
    });
  });

  it('answers DEMO-DOWN with AAA 42 in 2100A (unknown)', async () => {
    expect(await verify('DEMO-DOWN-N006')).toEqual({
      ...nothing,
      status: 'unknown',
      eligible: false,
      memberId: null,
      memberName: null,
      rejection: {
        reasonCode: '42',
        reason: "Unable to respond at current time: the payer's system is unavailable, try again later",
        followUpCode: 'R',
        followUp: 'Resubmission allowed',
        loop: '2100A',
      },
    });
  });

  it('fails with TRANSPORT_FAILED on a request that is not a 270', async () => {
    const error = await payer.send('hello', { correlationId: 'c1' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect([(error as AppError).code, (error as AppError).message]).toEqual([
      'TRANSPORT_FAILED',
      'The sandbox payer could not read the eligibility request',
    ]);
  });
});

/** The segments of the sandbox's 271 to a 270 for this member, optionally edited as text first. */
async function answerSegments(memberId: string, edit: (x12: string) => string = (x12) => x12): Promise<Segment[]> {
  const answer = await payer.send(edit(inquiry(memberId, '30')), { correlationId: 'c1' });
  return readInterchange(answer).groups[0]!.transactions[0]!.segments;
}

/** Loop 2100C: the subscriber's NM1 and what follows it up to the first EB, HL or SE. */
function loop2100C(segments: readonly Segment[]): string[] {
  const start = segments.findIndex((s) => s.id === 'NM1' && s.elements[1] === 'IL');
  if (start === -1) return [];
  const end = segments.findIndex((s, i) => i > start && (s.id === 'EB' || s.id === 'HL' || s.id === 'SE'));
  return segments.slice(start, end).map((s) => s.id);
}

describe('the sandbox 271 is valid to the 005010X279A1 TR3', () => {
  it.each([
    ['DEMO-ACTIVE-N001', ['NM1', 'REF', 'DMG', 'DTP']],
    ['DEMO-PRIORAUTH-N003', ['NM1', 'REF', 'DMG', 'DTP']],
    ['DEMO-OON-N004', ['NM1', 'REF', 'DMG', 'DTP']],
    ['DEMO-INACTIVE-N002', ['NM1', 'REF', 'DMG', 'DTP', 'DTP']],
    ['DEMO-NOTFOUND-N005', ['NM1', 'AAA', 'DMG']],
    ['DEMO-DOWN-N006', []],
  ])(
    'writes loop 2100C for %s in TR3 order (NM1, REF, N3, N4, AAA, PRV, DMG, INS, HI, DTP, MPI)',
    async (memberId, ids) => {
      expect(loop2100C(await answerSegments(memberId))).toEqual(ids);
    },
  );

  it.each(['DEMO-ACTIVE-N001', 'DEMO-PRIORAUTH-N003', 'DEMO-OON-N004', 'DEMO-INACTIVE-N002', 'DEMO-NOTFOUND-N005'])(
    "echoes the 270's TRN02..TRN04 in a TRN*2 for %s",
    async (memberId) => {
      const segments = await answerSegments(memberId, (x12) =>
        x12.replace('TRN*1*T1*9123456789~', 'TRN*1*T1*9123456789*RADIOLOGY~'),
      );
      expect(segments.filter((s) => s.id === 'TRN').map((s) => s.raw)).toEqual(['TRN*2*T1*9123456789*RADIOLOGY']);
    },
  );

  it("echoes the 270's BHT03 and a TRN without TRN04 as it came", async () => {
    const segments = await answerSegments('DEMO-ACTIVE-N001', (x12) =>
      x12.replace('BHT*0022*13*T1*', 'BHT*0022*13*SUBMIT-9*'),
    );
    expect(segments.filter((s) => s.id === 'BHT' || s.id === 'TRN').map((s) => s.raw)).toEqual([
      'BHT*0022*11*SUBMIT-9*20250315*100000',
      'TRN*2*T1*9123456789',
    ]);
  });

  it.each(['DEMO-ACTIVE-N001', 'DEMO-INACTIVE-N002', 'DEMO-NOTFOUND-N005', 'DEMO-DOWN-N006'])(
    'sets HL04 to 1 exactly when a child HL follows, for %s',
    async (memberId) => {
      const levels = (await answerSegments(memberId)).filter((s) => s.id === 'HL');
      const hasChild = (id: string | undefined) => levels.some((hl) => hl.elements[2] === id);
      expect(levels.map((hl) => hl.elements[4])).toEqual(levels.map((hl) => (hasChild(hl.elements[1]) ? '1' : '0')));
      expect(levels.length).toBe(memberId.startsWith('DEMO-DOWN') ? 1 : 3);
    },
  );

  it('cuts a subscriber name longer than NM103 or NM104 allows without a trailing space', async () => {
    const longNames = (x12: string) =>
      x12.replace('NM1*IL*1*DOE*JANE*', `NM1*IL*1*${'D'.repeat(59)} OE*${'J'.repeat(34)} ANE*`);
    const subscriber = (await answerSegments('DEMO-ACTIVE-N001', longNames)).find(
      (s) => s.id === 'NM1' && s.elements[1] === 'IL',
    )!;
    expect([subscriber.elements[3], subscriber.elements[4]]).toEqual(['D'.repeat(59), 'J'.repeat(34)]);
  });

  it("tells coverage dates from the 270's date of service, not the UTC month (a clinic's evening on the 30th)", async () => {
    // 01:30 UTC on Dec 1 is still Nov 30 in New York: coverage "ended last month" is Oct 31, before the visit.
    const evening = sandboxPayer(() => new Date('2026-12-01T01:30:00Z'));
    const x12 = inquiry('DEMO-INACTIVE-N002', '30').replace('DTP*291*D8*20250315', 'DTP*291*D8*20261130');
    const answer = await evening.send(x12, { correlationId: 'c1' });
    const read = readEligibility(answer, { dateOfService: '2026-11-30', serviceTypeCode: '30' });
    expect([read.coverageStart, read.coverageEnd]).toEqual(['2025-11-01', '2026-10-31']);
  });
});
