// The sandbox EHR's synthetic data: the same for a clinic on every call and process, different between clinics,
// valid enough for our own pull (FHIR ids, six types), and every clinical resource about one of the clinic's
// patients.
import { describe, expect, it } from 'vitest';
import { SYNC_RESOURCE_TYPES } from '../fhir/types';
import { clinicRecords, patientIdOf, PATIENTS_PER_CLINIC } from './synthetic-records';

describe('clinicRecords', () => {
  const north = clinicRecords('clinic_north');

  it('is deterministic per clinic and differs between clinics', () => {
    expect(JSON.stringify(clinicRecords('clinic_north'))).toBe(JSON.stringify(north));
    const south = clinicRecords('clinic_south');
    expect(south.groupId).toBe('grp-clinic-south');
    const northIds = new Set(north.byType.Patient.map((p) => p.id));
    expect(south.byType.Patient.some((p) => northIds.has(p.id))).toBe(false);
  });

  it('holds a few hundred resources of the six types with FHIR ids', () => {
    expect(north.byType.Patient).toHaveLength(PATIENTS_PER_CLINIC);
    const all = SYNC_RESOURCE_TYPES.flatMap((type) => north.byType[type]);
    expect(all.length).toBeGreaterThan(200);
    expect(all.every((r) => /^[A-Za-z0-9\-.]{1,64}$/.test(r.id))).toBe(true);
    expect(new Set(all.map((r) => `${r.resourceType}/${r.id}`)).size).toBe(all.length);
    expect(all.every((r) => Date.parse(r.meta!.lastUpdated!) < Date.parse('2026-07-01T00:00:00Z'))).toBe(true);
  });

  it("ties every clinical resource to one of the clinic's patients, and the Group lists them all", () => {
    const patients = new Set(north.byType.Patient.map((p) => p.id));
    for (const type of SYNC_RESOURCE_TYPES.filter((t) => t !== 'Patient'))
      expect(north.byType[type].every((r) => patients.has(patientIdOf(r) ?? ''))).toBe(true);
    expect((north.group.member as Array<{ entity: { reference: string } }>).map((m) => m.entity.reference)).toEqual(
      [...patients].map((id) => `Patient/${id}`),
    );
  });
});
