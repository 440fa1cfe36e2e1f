import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  COVERAGE_ELIGIBILITY_REQUEST_R4,
  COVERAGE_ELIGIBILITY_RESPONSE_R4,
} from '@/test/support/fhir-r4-eligibility-schema';
import { buildEligibilityPair, type EligibilityCheckForFhir } from './eligibility-resources';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validRequest = ajv.compile(COVERAGE_ELIGIBILITY_REQUEST_R4);
const validResponse = ajv.compile(COVERAGE_ELIGIBILITY_RESPONSE_R4);

const base: EligibilityCheckForFhir = {
  id: 'cm4abc123',
  patientId: 'pat_n_001',
  payerId: '60054',
  memberId: 'DEMO-ACTIVE-N001',
  serviceType: '30',
  dateOfService: '2026-11-28',
  status: 'active',
  createdAt: new Date('2026-11-28T10:00:00.000Z'),
  result: {
    status: 'active',
    planName: 'Gold PPO',
    deductible: { individual: 150000, met: 50000, remaining: 100000 },
    outOfPocket: { individual: 600000, met: 0, remaining: 600000 },
    copay: { primaryCare: 2500, specialist: 5000 },
    coinsurance: 20,
    coverageStart: '2026-01-01',
    coverageEnd: null,
    priorAuthRequired: false,
    network: 'IN',
    rejection: null,
  },
};

describe('buildEligibilityPair', () => {
  it('builds an R4 request and response for an active check: benefits in dollars, inforce true', () => {
    const [request, response] = buildEligibilityPair(base);
    expect(validRequest(request), ajv.errorsText(validRequest.errors)).toBe(true);
    expect(validResponse(response), ajv.errorsText(validResponse.errors)).toBe(true);
    expect(response).toMatchObject({
      outcome: 'complete',
      // FHIR ids allow no "_": our patient pat_n_001 is Patient/pat-n-001.
      patient: { reference: 'Patient/pat-n-001' },
      request: { reference: `CoverageEligibilityRequest/${request.id}` },
      insurance: [{ inforce: true, item: [{ network: { coding: [{ code: 'in' }] }, authorizationRequired: false }] }],
    });
    const benefits = (response.insurance as any)[0].item[0].benefit;
    expect(benefits[0]).toMatchObject({ allowedMoney: { value: 1500, currency: 'USD' }, usedMoney: { value: 500 } });
  });

  it('says inforce false for an inactive check', () => {
    const [, response] = buildEligibilityPair({
      ...base,
      status: 'inactive',
      result: { ...base.result, status: 'inactive' },
    });
    expect(validResponse(response), ajv.errorsText(validResponse.errors)).toBe(true);
    expect((response.insurance as any)[0].inforce).toBe(false);
  });

  it('turns a payer rejection into outcome error with the AAA reason as the error code', () => {
    const [, response] = buildEligibilityPair({
      ...base,
      status: 'unknown',
      result: { status: 'unknown', rejection: { reasonCode: '75', reason: 'Subscriber/insured not found' } },
    });
    expect(validResponse(response), ajv.errorsText(validResponse.errors)).toBe(true);
    expect(response).toMatchObject({ outcome: 'error', error: [{ code: { coding: [{ code: '75' }] } }] });
    expect(response.insurance).toBeUndefined();
  });

  it('the schema refuses what R4 refuses (a check that the check can fail)', () => {
    const [, response] = buildEligibilityPair(base);
    expect(validResponse({ ...response, outcome: 'done' })).toBe(false);
    const { insurer: _insurer, ...withoutInsurer } = response;
    expect(validResponse(withoutInsurer)).toBe(false);
    expect(validResponse({ ...response, created: '28/11/2026' })).toBe(false);
  });
});
