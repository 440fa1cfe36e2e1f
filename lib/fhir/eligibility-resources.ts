// An eligibility check as FHIR R4 (issue #23, DECISIONS "CDS Hooks"): one CoverageEligibilityRequest and its
// CoverageEligibilityResponse per EligibilityCheck row, stored in the clinic's FHIR store beside pulled resources
// (source "", the store's own). Pure: builds resources from a check; eligibility-check-store.ts writes them.
// R4 references: CoverageEligibilityRequest and CoverageEligibilityResponse (hl7.org/fhir/R4), money in USD.
import type { FhirResource } from './types';

/** What a check row holds that the resources need (the stored `result` is the parsed 271). */
export type EligibilityCheckForFhir = {
  id: string;
  patientId: string;
  payerId: string;
  memberId: string;
  serviceType: string;
  dateOfService: string;
  status: string;
  createdAt: Date;
  result: Record<string, unknown>;
};

// X12 payer ids have no FHIR naming system of their own; this URN says where the value comes from.
export const PAYER_ID_SYSTEM = 'urn:x12:payer-id';
const SERVICE_TYPE_SYSTEM = 'https://x12.org/codes/service-type-codes';
const BENEFIT_TYPE_SYSTEM = 'http://terminology.hl7.org/CodeSystem/benefit-type';
const NETWORK_SYSTEM = 'http://terminology.hl7.org/CodeSystem/benefit-network';
// HL7's benefit-type codes cover deductible and copay; out-of-pocket and coinsurance are ours (an example binding).
const OUR_BENEFIT_TYPE_SYSTEM = 'urn:clinic-revenue-platform:benefit-type';
const ADJUDICATION_ERROR_SYSTEM = 'https://x12.org/codes/reject-reason-codes';

/** FHIR ids allow 1-64 of [A-Za-z0-9-.]: the check id (a cuid) with a prefix per type. */
export const eligibilityRequestId = (checkId: string) =>
  `elig-req-${checkId}`.replace(/[^A-Za-z0-9\-.]/g, '-').slice(0, 64);
export const eligibilityResponseId = (checkId: string) =>
  `elig-res-${checkId}`.replace(/[^A-Za-z0-9\-.]/g, '-').slice(0, 64);
const fhirId = (id: string) => id.replace(/[^A-Za-z0-9\-.]/g, '-').slice(0, 64);

const money = (cents: unknown) =>
  typeof cents === 'number' && Number.isInteger(cents) ? { value: cents / 100, currency: 'USD' } : undefined;

type Amounts = { individual?: number | null; met?: number | null; remaining?: number | null } | undefined;

export function buildEligibilityPair(check: EligibilityCheckForFhir): [FhirResource, FhirResource] {
  const r = check.result;
  const created = check.createdAt.toISOString();
  const patient = { reference: `Patient/${fhirId(check.patientId)}` };
  const insurer = {
    identifier: { system: PAYER_ID_SYSTEM, value: check.payerId },
    ...(typeof r.payerName === 'string' && { display: r.payerName }),
  };
  const coverage = {
    resourceType: 'Coverage',
    id: 'coverage',
    status: 'active',
    subscriberId: check.memberId,
    beneficiary: patient,
    payor: [insurer],
  };
  const requestId = eligibilityRequestId(check.id);
  const request: FhirResource = {
    resourceType: 'CoverageEligibilityRequest',
    id: requestId,
    contained: [coverage],
    status: 'active',
    purpose: ['benefits'],
    patient,
    servicedDate: check.dateOfService,
    created,
    insurer,
    insurance: [{ focal: true, coverage: { reference: '#coverage' } }],
    item: [{ category: { coding: [{ system: SERVICE_TYPE_SYSTEM, code: check.serviceType }] } }],
  };

  const rejection = r.rejection as { reasonCode?: string; reason?: string } | null | undefined;
  const deductible = r.deductible as Amounts;
  const outOfPocket = r.outOfPocket as Amounts;
  const copay = r.copay as { primaryCare?: number | null; specialist?: number | null } | undefined;
  const benefit = [
    benefitOf('deductible', 'Deductible', deductible?.individual, deductible?.met),
    benefitOf(
      'out-of-pocket',
      'Out of pocket maximum',
      outOfPocket?.individual,
      outOfPocket?.met,
      OUR_BENEFIT_TYPE_SYSTEM,
    ),
    benefitOf('copay', 'Copayment per visit', copay?.primaryCare ?? copay?.specialist, undefined),
  ].filter((b): b is NonNullable<typeof b> => !!b);
  if (typeof r.coinsurance === 'number') {
    benefit.push({
      type: { coding: [{ system: OUR_BENEFIT_TYPE_SYSTEM, code: 'coinsurance', display: 'Coinsurance percent' }] },
      allowedUnsignedInt: r.coinsurance,
    } as never);
  }
  const network = r.network === 'IN' ? 'in' : r.network === 'OUT' ? 'out' : undefined;
  const unknown = check.status === 'unknown';
  const response: FhirResource = {
    resourceType: 'CoverageEligibilityResponse',
    id: eligibilityResponseId(check.id),
    contained: [coverage],
    status: 'active',
    purpose: ['benefits'],
    patient,
    servicedDate: check.dateOfService,
    created,
    request: { reference: `CoverageEligibilityRequest/${requestId}` },
    outcome: unknown ? 'error' : 'complete',
    ...(unknown && rejection?.reason && { disposition: rejection.reason }),
    insurer,
    ...(!unknown && {
      insurance: [
        {
          coverage: { reference: '#coverage' },
          inforce: check.status === 'active',
          ...(Boolean(r.coverageStart || r.coverageEnd) && {
            benefitPeriod: {
              ...(typeof r.coverageStart === 'string' && { start: r.coverageStart }),
              ...(typeof r.coverageEnd === 'string' && { end: r.coverageEnd }),
            },
          }),
          item: [
            {
              category: { coding: [{ system: SERVICE_TYPE_SYSTEM, code: check.serviceType }] },
              ...(network && { network: { coding: [{ system: NETWORK_SYSTEM, code: network }] } }),
              ...(benefit.length && { benefit }),
              authorizationRequired: r.priorAuthRequired === true,
            },
          ],
        },
      ],
    }),
    ...(unknown && {
      error: [
        {
          code: {
            coding: [{ system: ADJUDICATION_ERROR_SYSTEM, code: rejection?.reasonCode ?? 'UNKNOWN' }],
            ...(rejection?.reason && { text: rejection.reason }),
          },
        },
      ],
    }),
  };
  return [request, response];
}

function benefitOf(
  code: string,
  display: string,
  allowedCents: unknown,
  usedCents: unknown,
  system = BENEFIT_TYPE_SYSTEM,
) {
  const allowedMoney = money(allowedCents);
  const usedMoney = money(usedCents);
  if (!allowedMoney && !usedMoney) return undefined;
  return {
    type: { coding: [{ system, code, display }] },
    ...(allowedMoney && { allowedMoney }),
    ...(usedMoney && { usedMoney }),
  };
}
