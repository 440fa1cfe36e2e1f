// The ProfessionalClaim (lib/x12/professional-claim.ts) a stored claim becomes: the claim's own rows, the billing
// provider from the clinic's settings, and the payer, subscriber and patient from the patient's coverage on file.
// Pure. A value the records lack is written as an empty string rather than invented, so the scrubber names the
// missing field (demographics-complete, provider-details, coverage-on-file) instead of the 837P carrying a guess.
// The second pass (DECISIONS "Claim lifecycle"): a replacement or void carries the frequency and the payer's claim
// control number of the claim it acts on; a secondary claim goes to the secondary coverage on file and carries the
// primary payer's adjudication (read from its 835 by second-pass-facts.ts).
import type { OtherPayer, PersonName, PostalAddress, ProfessionalClaim } from '../x12/professional-claim';

export type ClaimRecord = {
  id: string;
  totalChargeCents: bigint;
  serviceDate: string;
  placeOfService: string;
  diagnoses: string[];
  renderingNpi: string | null;
  /** CLM05-3: "1" original (when absent), "7" replacement, "8" void. */
  frequency?: string;
  /** "primary" (when absent) or "secondary": which coverage on file the claim goes to. */
  payerRank?: string;
  lines: {
    procedureCode: string;
    modifiers: string[];
    diagnosisPointers: number[];
    units: number;
    chargeCents: bigint;
    serviceDate: string | null;
  }[];
};

export type ClinicRecord = {
  billingNpi: string | null;
  billingProviderName: string | null;
  billingTaxonomy: string | null;
  billingTaxId: string | null;
  billingAddress: unknown;
};

export type PatientRecord = {
  firstName: string;
  lastName: string;
  birthDate: string;
  gender: string | null;
  /** FHIR-shaped: { line: string[], city, state, postalCode }. */
  address: unknown;
  coverageMemberId: string | null;
  coveragePayerId: string | null;
  coveragePayerName: string | null;
  coverageGroupNumber: string | null;
  /** PAT01/INS02: "18" self, else the patient's relationship to the subscriber. */
  coverageRelationship: string;
  /** When not self: the subscriber as the card names them, { firstName, lastName }. */
  coverageSubscriber: unknown;
  /** The secondary coverage on file, the same fields; null when none. */
  secondaryMemberId?: string | null;
  secondaryPayerId?: string | null;
  secondaryPayerName?: string | null;
  secondaryGroupNumber?: string | null;
  secondaryRelationship?: string;
  secondarySubscriber?: unknown;
};

/** What the primary payer's 835 said of the claim a secondary follows (its CLP, SVCs and CAS). */
export type PrimaryAdjudication = {
  payerId: string;
  payerName: string;
  /** The member id the primary claim was sent with. */
  memberId: string;
  paidCents: number;
  adjustments: OtherPayer['adjustments'];
  /** One per claim line, in the claim's line order. */
  lines: OtherPayer['lines'];
};

/** Facts from other claims the second pass needs; absent for an original primary claim. */
export type SecondPassFacts = {
  /** The payer's claim control number of the claim a replacement or void acts on. */
  replacedPayerClaimId?: string | null;
  /** The primary's adjudication, for a secondary claim. */
  primary?: PrimaryAdjudication | null;
};

/** The selects that load exactly what assembleProfessionalClaim reads. */
export const CLINIC_BILLING_SELECT = {
  billingNpi: true,
  billingProviderName: true,
  billingTaxonomy: true,
  billingTaxId: true,
  billingAddress: true,
  timeZone: true,
} as const;

export const PATIENT_COVERAGE_SELECT = {
  firstName: true,
  lastName: true,
  birthDate: true,
  gender: true,
  address: true,
  coverageMemberId: true,
  coveragePayerId: true,
  coveragePayerName: true,
  coverageGroupNumber: true,
  coverageRelationship: true,
  coverageSubscriber: true,
  secondaryMemberId: true,
  secondaryPayerId: true,
  secondaryPayerName: true,
  secondaryGroupNumber: true,
  secondaryRelationship: true,
  secondarySubscriber: true,
} as const;

/** The patient with the coverage of the given rank in the coverage fields: a secondary claim's own coverage. */
export function coverageOfRank(patient: PatientRecord, rank: string | undefined): PatientRecord {
  if (rank !== 'secondary') return patient;
  return {
    ...patient,
    coverageMemberId: patient.secondaryMemberId ?? null,
    coveragePayerId: patient.secondaryPayerId ?? null,
    coveragePayerName: patient.secondaryPayerName ?? null,
    coverageGroupNumber: patient.secondaryGroupNumber ?? null,
    coverageRelationship: patient.secondaryRelationship ?? SELF,
    coverageSubscriber: patient.secondarySubscriber ?? null,
  };
}

const SELF = '18';

export function assembleProfessionalClaim(
  claim: ClaimRecord,
  clinic: ClinicRecord,
  patientOnFile: PatientRecord,
  facts: SecondPassFacts = {},
): ProfessionalClaim {
  const patient = coverageOfRank(patientOnFile, claim.payerRank);
  const billingNpi = clinic.billingNpi ?? '';
  const patientName: PersonName = { lastName: patient.lastName, firstName: patient.firstName };
  const patientDemographics = {
    birthDate: patient.birthDate,
    sex: sexCode(patient.gender),
    address: fhirAddress(patient.address),
  };
  const isSubscriber = patient.coverageRelationship === SELF;
  const subscriberName = isSubscriber ? patientName : cardName(patient.coverageSubscriber);
  const frequency = claim.frequency === '7' || claim.frequency === '8' ? claim.frequency : undefined;
  const primary = claim.payerRank === 'secondary' ? facts.primary : undefined;
  return {
    claimId: claim.id,
    ...(frequency ? { frequency, payerClaimNumber: facts.replacedPayerClaimId ?? '' } : {}),
    ...(claim.payerRank === 'secondary' ? { payerResponsibility: 'S' as const } : {}),
    ...(primary ? { otherPayer: otherPayerOf(patientOnFile, primary) } : {}),
    totalChargeCents: Number(claim.totalChargeCents),
    placeOfService: claim.placeOfService,
    diagnoses: claim.diagnoses,
    lines: claim.lines.map((line) => ({
      procedureCode: line.procedureCode,
      modifiers: line.modifiers,
      diagnosisPointers: line.diagnosisPointers,
      units: line.units,
      chargeCents: Number(line.chargeCents),
      serviceDate: line.serviceDate ?? claim.serviceDate,
    })),
    billingProvider: {
      npi: billingNpi,
      name: clinic.billingProviderName ?? '',
      taxonomyCode: clinic.billingTaxonomy ?? '',
      taxId: clinic.billingTaxId ?? '',
      address: postalAddress(clinic.billingAddress),
    },
    // Only an NPI other than the billing provider's makes a 2310B; its name is the clinic's billing name, since
    // the platform keeps no provider directory (NM104 is situational).
    ...(claim.renderingNpi && claim.renderingNpi !== billingNpi
      ? {
          renderingProvider: {
            npi: claim.renderingNpi,
            name: { lastName: clinic.billingProviderName ?? '', firstName: '' },
          },
        }
      : {}),
    payer: { id: patient.coveragePayerId ?? '', name: patient.coveragePayerName ?? '' },
    subscriber: {
      memberId: patient.coverageMemberId ?? '',
      ...(patient.coverageGroupNumber ? { groupNumber: patient.coverageGroupNumber } : {}),
      name: subscriberName,
      demographics: isSubscriber ? patientDemographics : null,
    },
    patient: isSubscriber
      ? null
      : { relationshipCode: patient.coverageRelationship, name: patientName, demographics: patientDemographics },
  };
}

/** 2320/2330A/2330B: the primary coverage on file (relationship, group, subscriber) and what its payer decided. */
function otherPayerOf(patient: PatientRecord, primary: PrimaryAdjudication): OtherPayer {
  const isSubscriber = patient.coverageRelationship === SELF;
  return {
    responsibility: 'P',
    relationshipCode: patient.coverageRelationship,
    ...(patient.coverageGroupNumber ? { groupNumber: patient.coverageGroupNumber } : {}),
    subscriber: {
      memberId: primary.memberId,
      name: isSubscriber
        ? { lastName: patient.lastName, firstName: patient.firstName }
        : cardName(patient.coverageSubscriber),
    },
    payer: { id: primary.payerId, name: primary.payerName },
    paidCents: primary.paidCents,
    adjustments: primary.adjustments,
    lines: primary.lines,
  };
}

/** DMG03 from the FHIR administrative gender. */
function sexCode(gender: string | null): string {
  switch (gender?.toLowerCase()) {
    case 'female':
    case 'f':
      return 'F';
    case 'male':
    case 'm':
      return 'M';
    case 'other':
    case 'unknown':
    case 'u':
      return 'U';
    default:
      return '';
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The clinic's billing address, stored as a PostalAddress. */
function postalAddress(value: unknown): PostalAddress {
  const address = record(value);
  const line2 = text(address.line2);
  return {
    line1: text(address.line1),
    ...(line2 ? { line2 } : {}),
    city: text(address.city),
    state: text(address.state).toUpperCase(),
    postalCode: text(address.postalCode).replace('-', ''),
  };
}

/** A patient's FHIR-shaped address ({ line: [...], city, state, postalCode }) as N3/N4 values. */
function fhirAddress(value: unknown): PostalAddress {
  const address = record(value);
  const lines = Array.isArray(address.line) ? address.line.map(text).filter(Boolean) : [];
  return {
    line1: lines[0] ?? '',
    ...(lines[1] ? { line2: lines[1] } : {}),
    city: text(address.city),
    state: text(address.state).toUpperCase(),
    postalCode: text(address.postalCode).replace('-', ''),
  };
}

function cardName(value: unknown): PersonName {
  const subscriber = record(value);
  return { lastName: text(subscriber.lastName), firstName: text(subscriber.firstName) };
}
