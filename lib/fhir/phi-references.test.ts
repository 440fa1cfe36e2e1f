// Whose data a set of served resources is, for the PHI access log: the patient's reference, else the resource's own;
// types the store does not serve carry no patient data.
import { describe, expect, it } from 'vitest';
import { phiReferencesOf } from './phi-references';

describe('phiReferencesOf', () => {
  it("names each resource's patient, a Patient itself, and keeps duplicates for the log to collapse", () => {
    expect(
      phiReferencesOf([
        { resourceType: 'Patient', id: 'p1' },
        { resourceType: 'Encounter', id: 'e1', subject: { reference: 'Patient/p2' } },
        { resourceType: 'Observation', id: 'o1', subject: { reference: 'Patient/p2' } },
      ]),
    ).toEqual(['Patient/p1', 'Patient/p2', 'Patient/p2']);
  });

  it('names the resource itself when it points at no patient of the store', () => {
    expect(
      phiReferencesOf([
        { resourceType: 'Encounter', id: 'e2', subject: { reference: 'https://elsewhere.example/Patient/9' } },
        { resourceType: 'Condition', id: 'c1' },
      ]),
    ).toEqual(['Encounter/e2', 'Condition/c1']);
  });

  it("gives nothing for an export's OperationOutcome", () => {
    expect(phiReferencesOf([{ resourceType: 'OperationOutcome', id: 'x' }])).toEqual([]);
  });
});
