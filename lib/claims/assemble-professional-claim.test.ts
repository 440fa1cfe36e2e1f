import { describe, expect, it } from 'vitest';
import {
  assembleProfessionalClaim,
  type ClaimRecord,
  type ClinicRecord,
  type PatientRecord,
} from './assemble-professional-claim';

const claim: ClaimRecord = {
  id: 'clm_1',
  totalChargeCents: 16_000n,
  serviceDate: '2026-11-20',
  placeOfService: '11',
  diagnoses: ['J02.9'],
  renderingNpi: null,
  lines: [
    {
      procedureCode: '99213',
      modifiers: ['25'],
      diagnosisPointers: [1],
      units: 1,
      chargeCents: 12_500n,
      serviceDate: null,
    },
    {
      procedureCode: '87880',
      modifiers: [],
      diagnosisPointers: [1],
      units: 1,
      chargeCents: 3_500n,
      serviceDate: '2026-11-19',
    },
  ],
};
const clinic: ClinicRecord = {
  billingNpi: '1234567893',
  billingProviderName: 'Northside Clinic Billing',
  billingTaxonomy: '261QP2300X',
  billingTaxId: '123456789',
  billingAddress: { line1: '100 North Main Street', city: 'Albany', state: 'NY', postalCode: '12207-1234' },
};
const patient: PatientRecord = {
  firstName: 'Avery',
  lastName: 'Northside001',
  birthDate: '1971-02-11',
  gender: 'female',
  address: { line: ['10 Elm Street', 'Apt 2'], city: 'Albany', state: 'ny', postalCode: '12207' },
  coverageMemberId: 'DEMO-ACTIVE-N001',
  coveragePayerId: '60054',
  coveragePayerName: 'Aetna',
  coverageGroupNumber: null,
  coverageRelationship: '18',
  coverageSubscriber: null,
};

describe('assembleProfessionalClaim', () => {
  it('makes the patient the subscriber when the relationship is self, and fills line dates from the claim', () => {
    const built = assembleProfessionalClaim(claim, clinic, patient);
    expect(built.patient).toBeNull();
    expect(built.subscriber).toEqual({
      memberId: 'DEMO-ACTIVE-N001',
      name: { lastName: 'Northside001', firstName: 'Avery' },
      demographics: {
        birthDate: '1971-02-11',
        sex: 'F',
        address: { line1: '10 Elm Street', line2: 'Apt 2', city: 'Albany', state: 'NY', postalCode: '12207' },
      },
    });
    expect(built.billingProvider.address.postalCode).toBe('122071234');
    expect(built.lines.map((l) => [l.serviceDate, l.chargeCents])).toEqual([
      ['2026-11-20', 12_500],
      ['2026-11-19', 3_500],
    ]);
    expect(built.renderingProvider).toBeUndefined();
    expect(built.payer).toEqual({ id: '60054', name: 'Aetna' });
  });

  it('writes a dependent as the 2000C patient under the subscriber on the card, without the subscriber DMG', () => {
    const built = assembleProfessionalClaim(claim, clinic, {
      ...patient,
      coverageRelationship: '19',
      coverageSubscriber: { firstName: 'Sam', lastName: 'Holder' },
    });
    expect(built.subscriber.name).toEqual({ lastName: 'Holder', firstName: 'Sam' });
    expect(built.subscriber.demographics).toBeNull();
    expect(built.patient).toMatchObject({ relationshipCode: '19', name: { lastName: 'Northside001' } });
  });

  it("bills a secondary to the secondary coverage, naming the primary's subscriber and adjudication (2320/2330)", () => {
    const primary = {
      payerId: '60054',
      payerName: 'Aetna',
      memberId: 'DEMO-ACTIVE-N001',
      paidCents: 16_000,
      adjustments: [],
      lines: [],
    };
    const onFile: PatientRecord = {
      ...patient,
      coverageRelationship: '19',
      coverageSubscriber: { firstName: 'Sam', lastName: 'Holder' },
      secondaryMemberId: 'S1',
      secondaryPayerId: '87726',
      secondaryPayerName: 'Second Plan',
    };
    const built = assembleProfessionalClaim({ ...claim, payerRank: 'secondary' }, clinic, onFile, { primary });
    expect(built).toMatchObject({ payerResponsibility: 'S', payer: { id: '87726' }, subscriber: { memberId: 'S1' } });
    expect(built.otherPayer).toMatchObject({
      relationshipCode: '19',
      subscriber: { memberId: 'DEMO-ACTIVE-N001', name: { lastName: 'Holder', firstName: 'Sam' } },
      payer: { id: '60054', name: 'Aetna' },
    });
    // A card holder the records lack stays empty, for the scrubber to name (demographics-complete), never invented.
    const unnamed = assembleProfessionalClaim(
      { ...claim, payerRank: 'secondary' },
      clinic,
      {
        ...onFile,
        coverageSubscriber: null,
      },
      { primary },
    );
    expect(unnamed.otherPayer!.subscriber.name).toEqual({ lastName: '', firstName: '' });
  });

  it('invents nothing: missing records become empty values the scrubber names', () => {
    const built = assembleProfessionalClaim(
      { ...claim, renderingNpi: '1245319599' },
      { ...clinic, billingTaxId: null, billingAddress: null },
      {
        ...patient,
        gender: null,
        address: null,
        coverageMemberId: null,
      },
    );
    expect(built.billingProvider.taxId).toBe('');
    expect(built.billingProvider.address).toEqual({ line1: '', city: '', state: '', postalCode: '' });
    expect(built.subscriber.memberId).toBe('');
    expect(built.subscriber.demographics?.sex).toBe('');
    expect(built.renderingProvider).toEqual({
      npi: '1245319599',
      name: { lastName: 'Northside Clinic Billing', firstName: '' },
    });
  });
});
