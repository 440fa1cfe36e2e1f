import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEligibility, type EligibilityFindings } from './read-eligibility';
import { X12ReadError } from './x12-read-error';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');
const read = (name: string, dateOfService = '2025-03-01', serviceTypeCode = '30') =>
  readEligibility(fixture(name), { dateOfService, serviceTypeCode });
const { evidence: _omit, ...emptyFields } = {
  status: 'unknown',
  eligible: false,
  rejection: null,
  memberId: null,
  memberName: null,
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
  network: 'UNKNOWN',
  evidence: {},
} satisfies EligibilityFindings;
const withoutEvidence = ({ evidence: _e, ...fields }: EligibilityFindings) => fields;

describe('readEligibility on a subscriber answer', () => {
  it('maps every field of an active PPO, deriving deductible met from individual minus remaining', () => {
    const findings = read('271-subscriber-ppo.x12');
    expect(withoutEvidence(findings)).toEqual({
      status: 'active',
      eligible: true,
      rejection: null,
      memberId: 'W123456789',
      memberName: 'JANE DOE',
      planName: 'ACME GOLD PPO',
      groupNumber: 'GRP00123',
      deductible: { individual: 150000, met: 50000, remaining: 100000 },
      outOfPocket: { individual: 600000, met: 150000, remaining: 450000 },
      copay: { specialist: 5000, primaryCare: 2500 },
      coinsurance: 20,
      coverageStart: '2025-01-01',
      coverageEnd: null,
      priorAuthRequired: false,
      priorAuthCodes: [],
      network: 'IN',
    });
  });

  it('keeps the verbatim source segments of each value as evidence', () => {
    const { evidence } = read('271-subscriber-ppo.x12');
    expect(evidence).toEqual({
      status: ['EB*1*IND*30^1^98*PR*ACME GOLD PPO'],
      memberId: ['NM1*IL*1*DOE*JANE****MI*W123456789'],
      memberName: ['NM1*IL*1*DOE*JANE****MI*W123456789'],
      planName: ['EB*1*IND*30^1^98*PR*ACME GOLD PPO'],
      groupNumber: ['REF*6P*GRP00123*ACME GOLD GROUP'],
      'deductible.individual': ['EB*C*IND*30***23*1500*****Y'],
      'deductible.remaining': ['EB*C*IND*30***29*1000*****Y'],
      'deductible.met': ['EB*C*IND*30***23*1500*****Y', 'EB*C*IND*30***29*1000*****Y'],
      'outOfPocket.individual': ['EB*G*IND*30***23*6000*****Y'],
      'outOfPocket.met': ['EB*G*IND*30***24*1500.00*****Y'],
      'outOfPocket.remaining': ['EB*G*IND*30***29*4500*****Y'],
      'copay.primaryCare': ['EB*B*IND*98***27*25*****Y', 'MSG*PCP OFFICE VISIT'],
      'copay.specialist': ['EB*B*IND*98***27*50.00*****Y', 'MSG*SPECIALIST OFFICE VISIT'],
      coinsurance: ['EB*A*IND*30*****.2****Y'],
      coverageStart: ['DTP*346*D8*20250101'],
      network: ['MSG*PROVIDER IS IN NETWORK'],
    });
  });

  it('is inactive when the date of service is before the coverage start', () => {
    const findings = read('271-subscriber-ppo.x12', '2024-12-31');
    expect([findings.status, findings.eligible, findings.rejection]).toEqual(['inactive', false, null]);
  });

  it('is inactive on an EB01 6 row, with the plan end date from DTP 347', () => {
    const findings = read('271-inactive.x12', '2025-03-01');
    expect(withoutEvidence(findings)).toEqual({
      ...emptyFields,
      status: 'inactive',
      memberId: 'W123456789',
      memberName: 'JANE DOE',
      coverageStart: '2024-01-01',
      coverageEnd: '2025-01-31',
    });
    expect(findings.evidence.status).toEqual(['EB*6**30']);
  });
});

describe('readEligibility on a dependent answer with other delimiters', () => {
  it('reads | * { > delimiters with CRLF line breaks and answers for the dependent (2110D), not the subscriber', () => {
    const findings = read('271-dependent-pipes.x12');
    expect(withoutEvidence(findings)).toEqual({
      ...emptyFields,
      status: 'active',
      eligible: true,
      memberId: 'BR5550001',
      memberName: 'LILY ROE',
      // The dependent's only EB01 1 row has no EB05, so planName comes from 2100C's REF*18 REF03.
      planName: 'RIVER SILVER HMO',
      groupNumber: 'GRP-777',
      deductible: { individual: 75000, met: 10000, remaining: 65000 },
      copay: { specialist: null, primaryCare: 1500 },
      coinsurance: 20,
      coverageStart: '2025-01-01',
      coverageEnd: '2025-12-31',
    });
    expect(findings.evidence.coverageEnd).toEqual(['DTP|307|RD8|20250101-20251231']);
  });

  it('is inactive for a dependent whose RD8 eligibility has ended', () => {
    expect(read('271-dependent-pipes.x12', '2026-01-01').status).toBe('inactive');
  });
});

describe('rejections', () => {
  const reject = (name: string) => {
    const findings = read(name);
    return {
      status: findings.status,
      eligible: findings.eligible,
      rejection: findings.rejection,
      memberId: findings.memberId,
    };
  };

  it.each([
    [
      '271-aaa-2000a.x12',
      {
        reasonCode: '79',
        reason: 'Invalid participant identification: the payer does not recognise the submitter or receiver',
        followUpCode: 'N',
        followUp: 'Resubmission not allowed',
        loop: '2100A',
      },
      null,
    ],
    [
      '271-aaa-2100a-down.x12',
      {
        reasonCode: '42',
        reason: "Unable to respond at current time: the payer's system is unavailable, try again later",
        followUpCode: 'R',
        followUp: 'Resubmission allowed',
        loop: '2100A',
      },
      null,
    ],
    [
      '271-aaa-2100b.x12',
      {
        reasonCode: '43',
        reason: 'Invalid or missing provider identification: check the provider NPI',
        followUpCode: 'C',
        followUp: 'Please correct and resubmit',
        loop: '2100B',
      },
      'W123456789',
    ],
    [
      '271-aaa-2100c-notfound.x12',
      {
        reasonCode: '75',
        reason: 'Subscriber/insured not found: the payer has no member matching this ID, name and date of birth',
        followUpCode: 'C',
        followUp: 'Please correct and resubmit',
        loop: '2100C',
      },
      'X000000',
    ],
    [
      '271-aaa-2100d.x12',
      {
        reasonCode: '67',
        reason: 'Patient not found: the payer has no dependent matching this request',
        followUpCode: 'C',
        followUp: 'Please correct and resubmit',
        loop: '2100D',
      },
      'W123456789',
    ],
  ])('%s is unknown with the first AAA as the rejection, never inactive', (name, rejection, memberId) => {
    expect(reject(name)).toEqual({ status: 'unknown', eligible: false, rejection, memberId });
  });

  it('keeps the rejecting AAA as evidence and still fills echoed fields', () => {
    const findings = read('271-aaa-2100c-notfound.x12');
    expect(findings.evidence.rejection).toEqual(['AAA*N**75*C']);
    expect(findings.memberName).toBe('JANE DOE');
  });

  it('treats an AAA inside a 2110 loop as an answer to one EQ, not a rejection', () => {
    const findings = read('271-one-line-aaa-2110.x12');
    expect(withoutEvidence(findings)).toEqual({
      ...emptyFields,
      status: 'active',
      eligible: true,
      memberId: 'W999',
      memberName: 'JOHN DOE',
      planName: 'ACME BASIC',
      // RD8 291 with an open end (99991231): start kept, end null.
      coverageStart: '2025-01-01',
      coverageEnd: null,
    });
  });
});

describe('ranking and exclusions', () => {
  it('applies EB06 preference, EB12 N exclusion, network and service ranking, sentinels and extra decimals', () => {
    const findings = read('271-ranking.x12');
    expect(withoutEvidence(findings)).toEqual({
      ...emptyFields,
      status: 'active',
      eligible: true,
      memberId: 'R100200300',
      memberName: 'JOHN PUBLIC',
      planName: 'PLAN A',
      // Only REF*1L is sent, so the group comes from REF02 of REF*1L.
      groupNumber: 'GRP-1L-ONLY',
      // EB06 23 row is EB12 N (never feeds); of the two 22 rows W beats U. 1200.005 is not cents; 1250.000 is.
      // 26 (episode) is not a total. met = 1800 - 1250.
      deductible: { individual: 180000, met: 55000, remaining: 125000 },
      // 99999.99 and 100000 are "no limit" sentinels.
      outOfPocket: { individual: null, met: 25000, remaining: null },
      // PCP: EB12 Y beats W; FAM loses to IND; the EB12 N and the 30 (not office) rows never feed.
      // Specialist: BZ and 98 tie on network and office rank, so file order picks BZ.
      copay: { specialist: 4500, primaryCare: 2000 },
      coinsurance: 30,
      // DTP 356 beats 346 and 357 beats 347 regardless of file order.
      coverageStart: '2025-02-01',
      coverageEnd: '2025-11-30',
      priorAuthRequired: false,
      // Every EB11 Y row, feeding or not: EB03 2 and 98, then EB13 code 99213 (no qualifier), then the row on 48
      // (another service type than the requested 30); EB11 U is not Y.
      priorAuthCodes: ['2', '98', '99213', '48'],
    });
    expect(findings.evidence['copay.primaryCare']).toEqual(['EB*B*IND*98***27*20*****Y', 'MSG*PCP']);
  });

  it('ranks the requested service type above 30 and office types', () => {
    const findings = read('271-ranking.x12', '2025-03-01', '98');
    expect([findings.coinsurance, findings.copay]).toEqual([10, { specialist: 5500, primaryCare: 2000 }]);
  });

  it('requires prior authorization for an EB01 1 row with EB11 Y on the requested type', () => {
    const findings = read('271-ranking.x12', '2025-03-01', '48');
    expect([findings.priorAuthRequired, findings.priorAuthCodes]).toEqual([true, ['2', '98', '99213', '48']]);
    expect(findings.evidence.priorAuthRequired).toEqual(['EB*1*IND*48********Y']);
  });

  it('counts both coverage bounds as inside the coverage', () => {
    expect(
      ['2025-01-31', '2025-02-01', '2025-11-30', '2025-12-01'].map((dos) => read('271-ranking.x12', dos).status),
    ).toEqual(['inactive', 'active', 'active', 'inactive']);
  });
});

describe('prior authorization codes and network on rows of other service types', () => {
  it('lists the codes of every row flagged EB11 Y, whatever its EB01, EB03 or EB12', () => {
    const findings = read('271-prior-auth-other-types.x12');
    // 48 with its EB13 procedure 70551 (EB01 CB), 33 (EB01 I) and AL (EB12 N): none is on the requested 30.
    expect([findings.priorAuthRequired, findings.priorAuthCodes]).toEqual([false, ['48', '70551', '33', 'AL']]);
    expect(findings.evidence.priorAuthCodes).toEqual([
      'EB*CB*IND*48********Y**HC:70551',
      'EB*I*IND*33********Y',
      'EB*1*IND*AL********Y*N',
    ]);
  });

  it('lists the same codes whatever service type is requested', () => {
    expect(
      ['30', '48', '98', 'AL'].map((type) => read('271-prior-auth-other-types.x12', '2025-03-01', type).priorAuthCodes),
    ).toEqual(Array(4).fill(['48', '70551', '33', 'AL']));
  });

  it('ignores a network MSG on a row for another service type or on an EB12 N row', () => {
    const findings = read('271-prior-auth-other-types.x12');
    expect([findings.network, findings.evidence.network]).toEqual(['IN', ['MSG*PRIMARY CARE, PROVIDER IS IN NETWORK']]);
  });

  it('reads the MSG of the row for the requested service type', () => {
    const findings = read('271-prior-auth-other-types.x12', '2025-03-01', '47');
    expect([findings.network, findings.evidence.network]).toEqual(['OUT', ['MSG*OUT OF NETWORK FOR HOSPITAL STAYS']]);
  });
});

describe('network and copay labels', () => {
  it('lets OUT win over IN and leaves primary care null when two office copays are unlabelled', () => {
    const findings = read('271-network-conflict.x12');
    expect([findings.network, findings.copay, findings.deductible.individual]).toEqual([
      'OUT',
      { specialist: null, primaryCare: null },
      50000,
    ]);
    expect(findings.evidence.network).toEqual(['MSG*Benefits shown are for non-participating providers']);
  });

  it('uses the single unlabelled office copay as primary care and reads PARTICIPATING as IN', () => {
    const findings = read('271-copay-unlabelled.x12', '2025-03-01', 'AL');
    expect([findings.network, findings.copay, findings.priorAuthRequired, findings.priorAuthCodes]).toEqual([
      'IN',
      { specialist: 7000, primaryCare: 3500 },
      true,
      ['AL'],
    ]);
  });

  it('never takes MSG text from a row on an unrelated service type', () => {
    expect(read('271-one-line-aaa-2110.x12').network).toBe('UNKNOWN');
  });
});

describe('input that is not a readable 271', () => {
  it.each([
    ['999-rejected.x12', '999', '999 acknowledgment (AK9 R) instead of a 271'],
    ['ta1-rejected.x12', 'ta1', 'interchange rejected with a TA1 instead of a 271 (TA105 note code 022)'],
    ['not-x12.txt', 'unreadable', 'not X12: the text does not start with an ISA segment'],
    ['271-truncated.x12', 'unreadable', 'truncated segment at the end of the interchange (MSG has no terminator)'],
    ['271-bad-se-count.x12', 'unreadable', 'SE01 says 29 segments, transaction set 0001 has 30'],
    ['271-short-isa.x12', 'unreadable', 'ISA segment is not 106 characters with fixed-width elements'],
  ])('%s throws X12ReadError', (name, kind, reason) => {
    const error = (() => {
      try {
        read(name);
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(X12ReadError);
    expect({ kind: (error as X12ReadError).kind, reason: (error as X12ReadError).reason }).toEqual({ kind, reason });
  });

  it.each(['constructor', 'toString', '__proto__', '24'])('refuses an HL03 of %s as no 271 level', (hl03) => {
    const text = fixture('271-subscriber-ppo.x12').replace(/HL\*3\*2\*22\*0/, `HL*3*2*${hl03}*0`);
    expect(text).toContain(`*${hl03}*0`);
    let error: unknown = null;
    try {
      readEligibility(text, { dateOfService: '2025-03-01', serviceTypeCode: '30' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(X12ReadError);
    expect({ kind: (error as X12ReadError).kind, reason: (error as X12ReadError).reason }).toEqual({
      kind: 'unreadable',
      reason: `HL03 ${hl03} is not a 271 hierarchical level`,
    });
  });

  it('rejects a date of service that is not YYYY-MM-DD', () => {
    expect(() =>
      readEligibility(fixture('271-subscriber-ppo.x12'), { dateOfService: '03/01/2025', serviceTypeCode: '30' }),
    ).toThrow(RangeError);
  });
});
