import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/http/errors';
import { build270 } from '@/lib/x12/build-270';
import { readEligibility, type EligibilityFindings } from '@/lib/x12/read-eligibility';
import { sandboxPayer } from './sandbox-payer';

const now = new Date('2025-03-15T10:00:00Z');
const payer = sandboxPayer(() => now);

function inquiry(memberId: string, serviceTypeCode: string): string {
  return build270({
    interchangeControlNumber: 9, groupControlNumber: 9, transactionControlNumber: '0001',
    senderId: 'CLINIC', receiverId: 'SANDBOX', createdAt: now,
    payer: { id: '60054', name: 'AETNA' }, provider: { npi: '1234567893', name: 'NORTHSIDE CLINIC' },
    subscriber: { memberId, firstName: 'JANE', lastName: 'DOE', birthDate: '1980-01-15' },
    serviceTypeCodes: [serviceTypeCode], dateOfService: '2025-03-15', traceNumber: 'T1',
  });
}

async function verify(memberId: string, serviceTypeCode = '30'): Promise<Omit<EligibilityFindings, 'evidence'>> {
  const answer = await payer.send(inquiry(memberId, serviceTypeCode), { correlationId: 'c1' });
  const { evidence: _evidence, ...fields } = readEligibility(answer, { dateOfService: '2025-03-15', serviceTypeCode });
  return fields;
}

const activePpo: Omit<EligibilityFindings, 'evidence'> = {
  status: 'active', eligible: true, rejection: null, memberId: 'DEMO-ACTIVE-N001', memberName: 'JANE DOE',
  planName: 'DEMO PPO', groupNumber: 'DEMO-GRP-001',
  deductible: { individual: 150000, met: 50000, remaining: 100000 },
  outOfPocket: { individual: 600000, met: 150000, remaining: 450000 },
  copay: { specialist: 5000, primaryCare: 2500 }, coinsurance: 20,
  coverageStart: '2025-01-01', coverageEnd: null, priorAuthRequired: false, priorAuthCodes: [], network: 'IN',
};
const nothing = {
  planName: null, groupNumber: null, deductible: { individual: null, met: null, remaining: null },
  outOfPocket: { individual: null, met: null, remaining: null }, copay: { specialist: null, primaryCare: null },
  coinsurance: null, coverageStart: null, coverageEnd: null, priorAuthRequired: false, priorAuthCodes: [], network: 'UNKNOWN' as const,
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
      ...nothing, status: 'inactive', eligible: false, rejection: null, memberId: 'DEMO-INACTIVE-N002', memberName: 'JANE DOE',
      planName: 'DEMO PPO', groupNumber: 'DEMO-GRP-001', coverageStart: '2024-03-01', coverageEnd: '2025-02-28',
    });
  });

  it('answers DEMO-PRIORAUTH with prior authorization on the requested type', async () => {
    expect(await verify('DEMO-PRIORAUTH-N003', '98')).toEqual({
      ...activePpo, memberId: 'DEMO-PRIORAUTH-N003', priorAuthRequired: true, priorAuthCodes: ['98'],
    });
  });

  it('answers DEMO-OON as active but out of network', async () => {
    expect(await verify('DEMO-OON-N004')).toEqual({ ...activePpo, memberId: 'DEMO-OON-N004', network: 'OUT' });
  });

  it('answers DEMO-NOTFOUND with AAA 75 in 2100C (unknown, not inactive)', async () => {
    expect(await verify('DEMO-NOTFOUND-N005')).toEqual({
      ...nothing, status: 'unknown', eligible: false, memberId: 'DEMO-NOTFOUND-N005', memberName: 'JANE DOE',
      rejection: { reasonCode: '75', reason: 'Subscriber/insured not found: the payer has no member matching this ID, name and date of birth', followUpCode: 'C', followUp: 'Please correct and resubmit', loop: '2100C' },
    });
  });

  it('answers DEMO-DOWN with AAA 42 in 2100A (unknown)', async () => {
    expect(await verify('DEMO-DOWN-N006')).toEqual({
      ...nothing, status: 'unknown', eligible: false, memberId: null, memberName: null,
      rejection: { reasonCode: '42', reason: "Unable to respond at current time: the payer's system is unavailable, try again later", followUpCode: 'R', followUp: 'Resubmission allowed', loop: '2100A' },
    });
  });

  it('fails with TRANSPORT_FAILED on a request that is not a 270', async () => {
    const error = await payer.send('hello', { correlationId: 'c1' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect([(error as AppError).code, (error as AppError).message]).toEqual(['TRANSPORT_FAILED', 'The sandbox payer could not read the eligibility request']);
  });
});
