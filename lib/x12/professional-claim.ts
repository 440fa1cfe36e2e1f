// What a professional claim says, in the 837P's own terms: every value resolved (defaults applied, line dates
// filled in), so build-837p.ts only writes and read-837p.ts only reads. Where the values come from (the clinic,
// the coverage on file) and whether they pass the payer's edits is lib/claims's business.

/** A US postal address: N3 (lines) and N4 (city, two-letter state, ZIP code of 5 or 9 digits). */
export type PostalAddress = { line1: string; line2?: string; city: string; state: string; postalCode: string };

export type PersonName = { lastName: string; firstName: string; middleName?: string };

/** DMG and address of the person the claim is for. */
export type Demographics = {
  /** YYYY-MM-DD. */
  birthDate: string;
  /** DMG03: F, M or U. */
  sex: string;
  address: PostalAddress;
};

export type ServiceLine = {
  /** SV101-2: a CPT or HCPCS Level II code. */
  procedureCode: string;
  /** SV101-3..6: up to 4 two-character modifiers. */
  modifiers: string[];
  /** SV107: 1 to 4 one-based positions in `diagnoses`. */
  diagnosisPointers: number[];
  /** SV104, a positive integer. */
  units: number;
  /** SV102, positive integer cents. */
  chargeCents: number;
  /** DTP*472, YYYY-MM-DD. */
  serviceDate: string;
};

export type ProfessionalClaim = {
  /** CLM01, 1 to 38 characters: our claim id, which the 277CA and 835 echo so they find the claim. */
  claimId: string;
  /** CLM02: must equal the sum of the lines' charges (TR3 2300 CLM02 note). */
  totalChargeCents: number;
  /** CLM05-1: a CMS place-of-service code. */
  placeOfService: string;
  /** HI: 1 to 12 ICD-10-CM codes, with or without the dot (the 837P carries them without). First is principal. */
  diagnoses: string[];
  /** 2400: 1 to 50 lines. */
  lines: ServiceLine[];
  /** 2000A/2010AA: an organisation. */
  billingProvider: { npi: string; name: string; taxonomyCode: string; taxId: string; address: PostalAddress };
  /** 2310B: written only when its NPI is not the billing provider's. */
  renderingProvider?: { npi: string; name: PersonName; taxonomyCode?: string };
  /** 2010BB: the destination payer. */
  payer: { id: string; name: string };
  /**
   * 2000B/2010BA. `demographics` is required when the patient is the subscriber. For a dependent patient the TR3
   * says not to send the subscriber's address and DMG: they are not written, and read back as null.
   */
  subscriber: { memberId: string; groupNumber?: string; name: PersonName; demographics: Demographics | null };
  /** 2000C/2010CA, null when the patient is the subscriber. `relationshipCode` is PAT01 (19 child, 01 spouse...). */
  patient: { relationshipCode: string; name: PersonName; demographics: Demographics } | null;
};
