import { describe, expect, it } from 'vitest';
import { patientRefOf } from './patient-ref';

describe('patientRefOf', () => {
  it("is a Patient's own id and the Patient/{id} of the other types' patient link", () => {
    expect(patientRefOf({ resourceType: 'Patient', id: 'p-1' })).toBe('p-1');
    expect(patientRefOf({ resourceType: 'Observation', id: 'o', subject: { reference: 'Patient/p-1' } })).toBe('p-1');
    expect(patientRefOf({ resourceType: 'AllergyIntolerance', id: 'a', patient: { reference: 'Patient/p-2' } })).toBe(
      'p-2',
    );
  });

  it('is null without a link to a patient on the same server', () => {
    expect(patientRefOf({ resourceType: 'Observation', id: 'o' })).toBeNull();
    expect(patientRefOf({ resourceType: 'Observation', id: 'o', subject: { reference: 'Group/g' } })).toBeNull();
    expect(
      patientRefOf({ resourceType: 'Encounter', id: 'e', subject: { reference: 'https://other.example/Patient/p' } }),
    ).toBeNull();
    expect(
      patientRefOf({ resourceType: 'AllergyIntolerance', id: 'a', subject: { reference: 'Patient/p' } }),
    ).toBeNull();
    expect(patientRefOf({ resourceType: 'Practitioner', id: 'x' })).toBeNull();
  });
});
