// JSON Schema for FHIR R4 CoverageEligibilityRequest and CoverageEligibilityResponse, written from the R4
// StructureDefinitions (hl7.org/fhir/R4/coverageeligibilityrequest.html, coverageeligibilityresponse.html): every
// element we emit with its R4 type and cardinality, the required ones required, the required-strength value sets
// (status, purpose, outcome) as enums, and no other members (R4 has no extension point but `extension`). The
// official fhir.schema.json is not vendored in this project; this covers exactly these two resources. Test-only.
const id = { type: 'string', pattern: '^[A-Za-z0-9\\-.]{1,64}$' };
const code = { type: 'string', pattern: '^[^\\s]+( [^\\s]+)*$' };
const uri = { type: 'string', pattern: '^\\S*$' };
const date = { type: 'string', pattern: '^\\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\\d|3[01]))?)?$' };
const dateTime = {
  type: 'string',
  pattern:
    '^\\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\\d|3[01])(T([01]\\d|2[0-3]):[0-5]\\d:([0-5]\\d|60)(\\.\\d+)?(Z|[+-]((0\\d|1[0-3]):[0-5]\\d|14:00)))?)?)?$',
};
const strict = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  required,
});
const coding = strict({
  system: uri,
  version: { type: 'string' },
  code,
  display: { type: 'string' },
  userSelected: { type: 'boolean' },
});
const codeableConcept = strict({ coding: { type: 'array', items: coding, minItems: 1 }, text: { type: 'string' } });
const identifier = strict({ use: code, system: uri, value: { type: 'string' } });
const reference = strict({ reference: { type: 'string' }, type: uri, identifier, display: { type: 'string' } });
const money = strict({ value: { type: 'number' }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } });
const period = strict({ start: dateTime, end: dateTime });
// meta is the store's own (versionId, lastUpdated and whatever else it keeps): its R4 types, other members allowed.
const meta = { type: 'object', properties: { versionId: id, lastUpdated: dateTime, source: uri } };

const coverage = strict(
  {
    resourceType: { const: 'Coverage' },
    id,
    status: { enum: ['active', 'cancelled', 'draft', 'entered-in-error'] },
    subscriberId: { type: 'string' },
    beneficiary: reference,
    payor: { type: 'array', items: reference, minItems: 1 },
  },
  ['resourceType', 'status', 'beneficiary', 'payor'],
);

const common = {
  id,
  meta,
  contained: { type: 'array', items: coverage },
  status: { enum: ['active', 'cancelled', 'draft', 'entered-in-error'] },
  purpose: {
    type: 'array',
    minItems: 1,
    items: { enum: ['auth-requirements', 'benefits', 'discovery', 'validation'] },
  },
  patient: reference,
  servicedDate: date,
  servicedPeriod: period,
  created: dateTime,
  insurer: reference,
};

export const COVERAGE_ELIGIBILITY_REQUEST_R4 = strict(
  {
    resourceType: { const: 'CoverageEligibilityRequest' },
    ...common,
    insurance: {
      type: 'array',
      items: strict({ focal: { type: 'boolean' }, coverage: reference, businessArrangement: { type: 'string' } }, [
        'coverage',
      ]),
    },
    item: { type: 'array', items: strict({ category: codeableConcept, productOrService: codeableConcept }) },
  },
  ['resourceType', 'status', 'purpose', 'patient', 'created', 'insurer'],
);

const benefit = strict(
  {
    type: codeableConcept,
    allowedUnsignedInt: { type: 'integer', minimum: 0 },
    allowedString: { type: 'string' },
    allowedMoney: money,
    usedUnsignedInt: { type: 'integer', minimum: 0 },
    usedString: { type: 'string' },
    usedMoney: money,
  },
  ['type'],
);

export const COVERAGE_ELIGIBILITY_RESPONSE_R4 = strict(
  {
    resourceType: { const: 'CoverageEligibilityResponse' },
    ...common,
    request: reference,
    outcome: { enum: ['queued', 'complete', 'error', 'partial'] },
    disposition: { type: 'string' },
    insurance: {
      type: 'array',
      items: strict(
        {
          coverage: reference,
          inforce: { type: 'boolean' },
          benefitPeriod: period,
          item: {
            type: 'array',
            items: strict({
              category: codeableConcept,
              productOrService: codeableConcept,
              excluded: { type: 'boolean' },
              name: { type: 'string' },
              network: codeableConcept,
              unit: codeableConcept,
              term: codeableConcept,
              benefit: { type: 'array', items: benefit },
              authorizationRequired: { type: 'boolean' },
            }),
          },
        },
        ['coverage'],
      ),
    },
    error: { type: 'array', items: strict({ code: codeableConcept }, ['code']) },
  },
  ['resourceType', 'status', 'purpose', 'patient', 'created', 'request', 'outcome', 'insurer'],
);
