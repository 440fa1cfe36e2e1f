// The scrubber's edits, as data: each is an id, a message safe to show a clinic, and a pure check that names
// the fields that fail it. They run before a claim is sent (scrub-claim.ts); a route can list them as they are.
// Facts that need the database (an eligibility check, an earlier claim) come in already established on the
// input, and `today` comes in too: no edit reads the clock or does I/O.
import { PATIENT_RELATIONSHIP_CODES } from '../../x12/build-837p';
import type {
  Demographics,
  PersonName,
  PostalAddress,
  ProfessionalClaim,
  ServiceLine,
} from '../../x12/professional-claim';
import { MAX_CLAIM_AMOUNT_CENTS } from '../claim-body';
import { dayNumber } from './day-number';
import { isValidNpi } from './is-valid-npi';
import { PLACE_OF_SERVICE_CODES } from './place-of-service-codes';

export type ScrubInput = {
  claim: ProfessionalClaim;
  /** The clinic's date today, YYYY-MM-DD. */
  today: string;
  /** The payer's timely-filing limit, in days after the date of service; 365 when the payer has none on file. */
  filingLimitDays?: number;
  /** Whether an active eligibility check of this coverage, as it is on file now, was made within 24 hours. */
  hasMatchingActiveCheck: boolean;
  /** The id of a claim already submitted for the same patient, date of service and lines, or null. */
  duplicateOf: string | null;
};

export type ScrubEdit = {
  id: string;
  message: string;
  /** The paths that fail, in the claim body's terms ("lines.0.units"); empty when the claim passes. */
  check: (input: ScrubInput) => string[];
};

export const DEFAULT_FILING_LIMIT_DAYS = 365;

// ICD-10-CM: a letter, a digit, a digit or letter, then up to four more characters after an optional dot.
const ICD_10_CM = /^[A-Z][0-9][0-9A-Z](?:\.?[0-9A-Z]{1,4})?$/i;
// CPT: five digits, or four digits and F (Category II), T (Category III) or U (proprietary laboratory analyses).
// HCPCS Level II: a letter and four digits.
const PROCEDURE_CODE = /^(?:\d{4}[0-9FTU]|[A-Z]\d{4})$/;
const MODIFIER = /^[0-9A-Z]{2}$/;
// NUCC health care provider taxonomy: ten characters ending in X ("207Q00000X").
const TAXONOMY = /^\d{3}[0-9A-Z]{6}X$/;
// CLM01 as payers keep it (DECISIONS "Claim lifecycle").
export const PATIENT_CONTROL_NUMBER_MAX = 20;
const X12_DELIMITERS = /[*~:^\r\n]/;

export const SCRUB_EDITS: readonly ScrubEdit[] = [
  {
    id: 'coverage-on-file',
    message: 'The patient needs coverage on file: a payer and a member id',
    check: ({ claim }) => {
      const failed: string[] = [];
      requireText(failed, 'payer.id', claim.payer.id);
      requireText(failed, 'payer.name', claim.payer.name);
      requireText(failed, 'subscriber.memberId', claim.subscriber.memberId);
      return failed;
    },
  },
  {
    id: 'eligibility-verified',
    message: "An active eligibility check of the patient's coverage on file within the last 24 hours is required",
    check: ({ hasMatchingActiveCheck }) => (hasMatchingActiveCheck ? [] : ['coverage']),
  },
  {
    id: 'duplicate-claim',
    message: 'A claim for the same patient, date of service and lines was already submitted',
    check: ({ duplicateOf }) => (duplicateOf === null ? [] : ['lines']),
  },
  {
    // DECISIONS "Claim lifecycle": payers keep 20 characters of CLM01 and echo them in the 277CA and the 835's
    // CLP01; a longer id comes back cut and finds no claim.
    id: 'patient-control-number',
    message: 'The claim id (CLM01, the patient control number) must be at most 20 characters',
    check: ({ claim }) => (claim.claimId.length > PATIENT_CONTROL_NUMBER_MAX ? ['claimId'] : []),
  },
  {
    id: 'npi-check-digit',
    message: 'An NPI must be 10 digits with a valid check digit',
    check: ({ claim: { billingProvider: billing, renderingProvider: rendering } }) => {
      const failed: string[] = [];
      if (!isValidNpi(billing.npi)) failed.push('billingProvider.npi');
      if (rendering && !isValidNpi(rendering.npi)) failed.push('renderingProvider.npi');
      return failed;
    },
  },
  {
    id: 'provider-details',
    message:
      'The billing provider needs a name, a taxonomy code, a 9-digit tax id and a street address with a 9-digit ZIP code; ' +
      'a rendering provider needs a last name and, if given, a valid taxonomy code',
    check: ({ claim: { billingProvider: billing, renderingProvider: rendering } }) => {
      const failed: string[] = [];
      requireText(failed, 'billingProvider.name', billing.name);
      requireMatch(failed, 'billingProvider.taxonomyCode', billing.taxonomyCode, TAXONOMY);
      requireMatch(failed, 'billingProvider.taxId', billing.taxId, /^\d{9}$/);
      // TR3 2010AA N403: the billing provider's ZIP code must have nine digits.
      requireAddress(failed, 'billingProvider.address', billing.address, /^\d{9}$/);
      if (rendering) {
        // NM104 (first name) is situational in 2310B: the platform knows a rendering provider by NPI only.
        requireText(failed, 'renderingProvider.name.lastName', rendering.name.lastName);
        if (rendering.taxonomyCode !== undefined)
          requireMatch(failed, 'renderingProvider.taxonomyCode', rendering.taxonomyCode, TAXONOMY);
      }
      return failed;
    },
  },
  {
    id: 'demographics-complete',
    message:
      'The subscriber and the patient need a first and last name, and the patient a birth date, sex (F, M or U) and ' +
      "address; a secondary claim also needs the name of the primary coverage's subscriber",
    check: ({ claim: { subscriber, patient, otherPayer }, today }) => {
      const failed: string[] = [];
      requireName(failed, 'subscriber.name', subscriber.name);
      // 2330A NM103 (and NM104 for a person) of the other payer's subscriber, sent with every 2320.
      if (otherPayer) requireName(failed, 'otherPayer.subscriber.name', otherPayer.subscriber.name);
      if (patient) {
        requireName(failed, 'patient.name', patient.name);
        requireDemographics(failed, 'patient.demographics', patient.demographics, today);
      } else {
        requireDemographics(failed, 'subscriber.demographics', subscriber.demographics, today);
      }
      return failed;
    },
  },
  {
    id: 'patient-relationship',
    message:
      'A patient who is not the subscriber needs a relationship code: 01 spouse, 19 child, 20 employee, 21 unknown, ' +
      '39 organ donor, 40 cadaver donor, 53 life partner or G8 other',
    check: ({ claim: { patient } }) =>
      !patient || PATIENT_RELATIONSHIP_CODES.has(patient.relationshipCode) ? [] : ['patient.relationshipCode'],
  },
  {
    id: 'diagnosis-count',
    message: 'A claim needs 1 to 12 diagnoses',
    check: ({ claim }) => (claim.diagnoses.length >= 1 && claim.diagnoses.length <= 12 ? [] : ['diagnoses']),
  },
  {
    id: 'diagnosis-code-shape',
    message: 'A diagnosis must be an ICD-10-CM code, such as J06.9 or S93.401A',
    check: ({ claim }) => {
      const failed: string[] = [];
      claim.diagnoses.forEach((code, i) => requireMatch(failed, `diagnoses.${i}`, code, ICD_10_CM));
      return failed;
    },
  },
  {
    id: 'line-count',
    message: 'A claim needs 1 to 50 service lines',
    check: ({ claim }) => (claim.lines.length >= 1 && claim.lines.length <= 50 ? [] : ['lines']),
  },
  {
    id: 'procedure-code-shape',
    message:
      'A procedure must be a CPT code (5 digits, or 4 digits and F, T or U) or a HCPCS Level II code (a letter and 4 digits)',
    check: ({ claim }) => failingLines(claim.lines, 'procedureCode', (line) => PROCEDURE_CODE.test(line.procedureCode)),
  },
  {
    id: 'modifier-shape',
    message: 'A line takes at most 4 modifiers, each 2 letters or digits',
    check: ({ claim }) =>
      failingLines(
        claim.lines,
        'modifiers',
        (line) => line.modifiers.length <= 4 && line.modifiers.every((modifier) => MODIFIER.test(modifier)),
      ),
  },
  {
    id: 'diagnosis-pointers',
    message: "A line needs 1 to 4 diagnosis pointers, each the position (from 1) of one of the claim's diagnoses",
    check: ({ claim }) => {
      const diagnosisCount = Math.min(claim.diagnoses.length, 12);
      const isPointer = (pointer: number) => Number.isInteger(pointer) && pointer >= 1 && pointer <= diagnosisCount;
      return failingLines(
        claim.lines,
        'diagnosisPointers',
        ({ diagnosisPointers: pointers }) => pointers.length >= 1 && pointers.length <= 4 && pointers.every(isPointer),
      );
    },
  },
  {
    id: 'units-positive',
    message: 'Units must be a whole number above zero',
    check: ({ claim }) => failingLines(claim.lines, 'units', (line) => isPositiveInteger(line.units)),
  },
  {
    id: 'charge-positive',
    message: 'A line charge must be a whole number of cents above zero',
    check: ({ claim }) => failingLines(claim.lines, 'chargeCents', (line) => isPositiveInteger(line.chargeCents)),
  },
  {
    // DECISIONS "Security findings of 2026-11-28": checked at create and edit too; here for a draft stored before.
    id: 'amount-limit',
    message: 'A line charge and the claim total must each be at most 99,999,999 cents ($999,999.99)',
    check: ({ claim }) => [
      ...failingLines(claim.lines, 'chargeCents', (line) => line.chargeCents <= MAX_CLAIM_AMOUNT_CENTS),
      ...(claim.totalChargeCents <= MAX_CLAIM_AMOUNT_CENTS ? [] : ['totalChargeCents']),
    ],
  },
  {
    id: 'total-equals-lines',
    message: "The claim's total charge must equal the sum of its lines' charges",
    check: ({ claim }) =>
      claim.totalChargeCents === claim.lines.reduce((sum, line) => sum + line.chargeCents, 0)
        ? []
        : ['totalChargeCents'],
  },
  {
    id: 'service-date',
    message: 'A date of service must be a real date, not in the future',
    check: ({ claim, today }) => {
      const todayDay = dayNumber(today)!;
      return failingLines(claim.lines, 'serviceDate', (line) => {
        const day = dayNumber(line.serviceDate);
        return day !== null && day <= todayDay;
      });
    },
  },
  {
    id: 'timely-filing',
    message: "A date of service must be within the payer's filing limit (365 days unless the payer sets another)",
    check: ({ claim, today, filingLimitDays = DEFAULT_FILING_LIMIT_DAYS }) => {
      const todayDay = dayNumber(today)!;
      return failingLines(claim.lines, 'serviceDate', (line) => {
        const day = dayNumber(line.serviceDate);
        return day === null || todayDay - day <= filingLimitDays; // an unreal date is service-date's failure
      });
    },
  },
  {
    id: 'place-of-service',
    message: "The place of service must be a code from CMS's Place of Service code set, such as 11 (office)",
    check: ({ claim }) => (PLACE_OF_SERVICE_CODES.has(claim.placeOfService) ? [] : ['placeOfService']),
  },
  {
    id: 'x12-characters',
    message: 'Text cannot contain the characters * ~ : ^ or a line break: the claim format reserves them',
    check: ({ claim }) => {
      const failed: string[] = [];
      findReservedCharacters(failed, '', claim);
      return failed;
    },
  },
];

function isPositiveInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

function requireText(failed: string[], path: string, value: string): void {
  if (value.trim() === '') failed.push(path);
}

function requireMatch(failed: string[], path: string, value: string, pattern: RegExp): void {
  if (!pattern.test(value)) failed.push(path);
}

function requireName(failed: string[], path: string, name: PersonName): void {
  requireText(failed, `${path}.lastName`, name.lastName);
  requireText(failed, `${path}.firstName`, name.firstName);
}

function requireAddress(
  failed: string[],
  path: string,
  address: PostalAddress,
  postalCode = /^\d{5}(?:\d{4})?$/,
): void {
  requireText(failed, `${path}.line1`, address.line1);
  requireText(failed, `${path}.city`, address.city);
  requireMatch(failed, `${path}.state`, address.state, /^[A-Z]{2}$/);
  requireMatch(failed, `${path}.postalCode`, address.postalCode, postalCode);
}

function requireDemographics(failed: string[], path: string, demographics: Demographics | null, today: string): void {
  if (!demographics) {
    failed.push(path);
    return;
  }
  const born = dayNumber(demographics.birthDate);
  if (born === null || born > dayNumber(today)!) failed.push(`${path}.birthDate`);
  if (demographics.sex !== 'F' && demographics.sex !== 'M' && demographics.sex !== 'U') failed.push(`${path}.sex`);
  requireAddress(failed, `${path}.address`, demographics.address);
}

/** "lines.<i>.<field>" for each line that is not valid. */
function failingLines(
  lines: readonly ServiceLine[],
  field: keyof ServiceLine,
  isValid: (line: ServiceLine) => boolean,
): string[] {
  const failed: string[] = [];
  lines.forEach((line, i) => {
    if (!isValid(line)) failed.push(`lines.${i}.${field}`);
  });
  return failed;
}

/** Adds the dotted path ("lines.0.modifiers.1") of every string under `value` that holds an X12 delimiter. */
function findReservedCharacters(failed: string[], path: string, value: object): void {
  for (const key in value) {
    const child: unknown = (value as Record<string, unknown>)[key];
    if (typeof child === 'string') {
      if (X12_DELIMITERS.test(child)) failed.push(path + key);
    } else if (child !== null && typeof child === 'object') {
      findReservedCharacters(failed, `${path}${key}.`, child);
    }
  }
}
