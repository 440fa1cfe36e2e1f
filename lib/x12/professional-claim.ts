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

/** One CAS reason/amount pair of another payer's adjudication (CAS01 group, CAS02/05/.. reason, CAS03/06/.. amount). */
export type OtherPayerAdjustment = { group: string; reason: string; amountCents: number };

/**
 * What the primary payer decided, carried on a secondary claim (loops 2320, 2330A, 2330B and 2430): who the other
 * subscriber and payer are, what it paid for the claim (AMT*D) with its claim-level CAS, and per service line (in
 * the claim's line order) its SVD, CAS and adjudication date (DTP*573).
 */
export type OtherPayer = {
  /** 2320 SBR01: the other payer's rank, P when it is the primary. */
  responsibility: string;
  /** 2320 SBR02: the patient's relationship to the other subscriber (18 self, 01 spouse, 19 child, G8 other). */
  relationshipCode: string;
  /** 2320 SBR03. */
  groupNumber?: string;
  /** 2330A NM1*IL: the other subscriber, with MI. */
  subscriber: { memberId: string; name: PersonName };
  /** 2330B NM1*PR: the other payer, with PI; SVD01 repeats its id. */
  payer: { id: string; name: string };
  /** 2320 AMT*D: what the other payer paid for the claim, integer cents. */
  paidCents: number;
  /** 2320 CAS: the other payer's claim-level adjustments. */
  adjustments: OtherPayerAdjustment[];
  /** 2430, one per claim line in order: what the other payer did with that line. */
  lines: {
    procedureCode: string;
    modifiers: string[];
    /** SVD02. */
    paidCents: number;
    /** SVD05, the units paid. */
    units: number;
    adjustments: OtherPayerAdjustment[];
    /** DTP*573, YYYY-MM-DD: the day the other payer adjudicated the line. */
    adjudicationDate: string;
  }[];
};

export type ProfessionalClaim = {
  /** CLM01, 1 to 38 characters: our claim id, which the 277CA and 835 echo so they find the claim. */
  claimId: string;
  /** CLM02: must equal the sum of the lines' charges (TR3 2300 CLM02 note). */
  totalChargeCents: number;
  /** CLM05-3 claim frequency: 1 original (the default), 7 replacement, 8 void of a prior claim. */
  frequency?: '1' | '7' | '8';
  /** 2300 REF*F8: the payer's claim control number of the claim a replacement or void acts on. */
  payerClaimNumber?: string;
  /** 2000B SBR01: P (the default) when the destination payer is the primary, S when it is the secondary. */
  payerResponsibility?: 'P' | 'S';
  /** 2320/2330/2430: the primary payer's adjudication, on a secondary claim. */
  otherPayer?: OtherPayer;
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
