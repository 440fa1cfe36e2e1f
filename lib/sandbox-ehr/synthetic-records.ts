// The sandbox EHR's data: deterministic synthetic FHIR R4 resources for one clinic (20 patients, each with
// encounters, observations, conditions, medication requests and allergies: about 300 resources). A seeded PRNG
// keyed on the clinic id makes every run, process and instance agree, so nothing is stored. No real person's data.
import { SYNC_RESOURCE_TYPES, type FhirResource, type SyncResourceType } from '../fhir/types';
import { sandboxGroupId } from './sandbox-ehr-urls';
import { seededRandom } from '../seeded-random';

export const PATIENTS_PER_CLINIC = 20;

export type ClinicRecords = {
  clinicId: string;
  groupId: string;
  group: FhirResource;
  byType: Record<SyncResourceType, FhirResource[]>;
};

const FAMILY = ['Rivera', 'Okafor', 'Lindqvist', 'Nakamura', 'Haddad', 'Moreau', 'Kowalski', 'Adeyemi', 'Brennan'];
const GIVEN = ['Avery', 'Jordan', 'Mina', 'Tomas', 'Priya', 'Elias', 'Noor', 'Sam', 'Leona', 'Kai', 'Ruth', 'Omar'];
const VITALS = [
  { code: '8867-4', display: 'Heart rate', unit: '/min', min: 55, max: 100 },
  { code: '29463-7', display: 'Body weight', unit: 'kg', min: 50, max: 110 },
  { code: '8480-6', display: 'Systolic blood pressure', unit: 'mm[Hg]', min: 100, max: 150 },
  { code: '8310-5', display: 'Body temperature', unit: 'Cel', min: 36, max: 38 },
];
const CONDITIONS = [
  { code: '38341003', display: 'Hypertensive disorder' },
  { code: '44054006', display: 'Diabetes mellitus type 2' },
  { code: '195967001', display: 'Asthma' },
  { code: '55822004', display: 'Hyperlipidemia' },
];
const MEDICATIONS = [
  { code: '197361', display: 'Amlodipine 5 MG Oral Tablet' },
  { code: '860975', display: 'Metformin 500 MG Oral Tablet' },
  { code: '745679', display: 'Albuterol 0.09 MG/ACTUAT Inhaler' },
  { code: '617312', display: 'Atorvastatin 10 MG Oral Tablet' },
];
const ALLERGIES = [
  { code: '764146007', display: 'Penicillin' },
  { code: '91935009', display: 'Peanut' },
  { code: '300916003', display: 'Latex' },
];
const DAY_MS = 24 * 60 * 60 * 1000;
// Every lastUpdated falls in the year before this instant, so a `_since` after it returns nothing new.
const EPOCH = Date.parse('2025-06-01T00:00:00Z');

/** FNV-1a of the clinic id: the PRNG's seed. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash >>> 0;
}

const cache = new Map<string, ClinicRecords>();

/** The clinic's records; built once per process and clinic (pure, so caching cannot change an answer). */
export function clinicRecords(clinicId: string): ClinicRecords {
  let records = cache.get(clinicId);
  if (!records) {
    records = buildClinicRecords(clinicId);
    cache.set(clinicId, records);
  }
  return records;
}

function buildClinicRecords(clinicId: string): ClinicRecords {
  const random = seededRandom(seedOf(clinicId));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const instant = (dayOffset: number, hour = 9) => new Date(EPOCH + dayOffset * DAY_MS + hour * 3600_000).toISOString();
  const groupId = sandboxGroupId(clinicId);
  const prefix = groupId.replace(/^grp-/, '');
  const byType = Object.fromEntries(
    SYNC_RESOURCE_TYPES.map((t) => [t, [] as FhirResource[]]),
  ) as ClinicRecords['byType'];
  const meta = (day: number) => ({ versionId: '1', lastUpdated: instant(day, 12) });
  const concept = (system: string, c: { code: string; display: string }) => ({
    coding: [{ system, code: c.code, display: c.display }],
    text: c.display,
  });

  for (let p = 1; p <= PATIENTS_PER_CLINIC; p++) {
    const patientId = `${prefix}-p${String(p).padStart(2, '0')}`.slice(0, 64);
    const subject = { reference: `Patient/${patientId}` };
    const registered = between(0, 60);
    const given = pick(GIVEN);
    const family = pick(FAMILY);
    byType.Patient.push({
      resourceType: 'Patient',
      id: patientId,
      meta: meta(registered),
      identifier: [
        { system: 'urn:sandbox-ehr:mrn', value: `MRN-${prefix.toUpperCase()}-${String(p).padStart(4, '0')}` },
      ],
      name: [{ use: 'official', family, given: [given] }],
      gender: random() < 0.5 ? 'female' : 'male',
      birthDate: `${between(1945, 2015)}-${String(between(1, 12)).padStart(2, '0')}-${String(between(1, 28)).padStart(2, '0')}`,
    });
    const encounters = between(2, 3);
    for (let e = 1; e <= encounters; e++) {
      const day = between(registered + 1, 360);
      const encounterId = `${patientId}-e${e}`;
      byType.Encounter.push({
        resourceType: 'Encounter',
        id: encounterId,
        meta: meta(day),
        status: 'finished',
        class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB', display: 'ambulatory' },
        subject,
        period: { start: instant(day, 9), end: instant(day, 10) },
      });
      for (const vital of [pick(VITALS), pick(VITALS)]) {
        byType.Observation.push({
          resourceType: 'Observation',
          id: `${encounterId}-o${byType.Observation.length + 1}`,
          meta: meta(day),
          status: 'final',
          category: [
            {
              coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }],
            },
          ],
          code: concept('http://loinc.org', vital),
          subject,
          encounter: { reference: `Encounter/${encounterId}` },
          effectiveDateTime: instant(day, 9),
          valueQuantity: {
            value: between(vital.min, vital.max),
            unit: vital.unit,
            system: 'http://unitsofmeasure.org',
            code: vital.unit,
          },
        });
      }
    }
    const condition = pick(CONDITIONS);
    const medication = MEDICATIONS[CONDITIONS.indexOf(condition)]!;
    const onset = between(registered, 300);
    byType.Condition.push({
      resourceType: 'Condition',
      id: `${patientId}-c1`,
      meta: meta(onset),
      clinicalStatus: concept('http://terminology.hl7.org/CodeSystem/condition-clinical', {
        code: 'active',
        display: 'Active',
      }),
      code: concept('http://snomed.info/sct', condition),
      subject,
      onsetDateTime: instant(onset),
    });
    byType.MedicationRequest.push({
      resourceType: 'MedicationRequest',
      id: `${patientId}-m1`,
      meta: meta(onset),
      status: 'active',
      intent: 'order',
      medicationCodeableConcept: concept('http://www.nlm.nih.gov/research/umls/rxnorm', medication),
      subject,
      authoredOn: instant(onset),
    });
    if (random() < 0.6) {
      byType.AllergyIntolerance.push({
        resourceType: 'AllergyIntolerance',
        id: `${patientId}-a1`,
        meta: meta(registered),
        clinicalStatus: concept('http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', {
          code: 'active',
          display: 'Active',
        }),
        code: concept('http://snomed.info/sct', pick(ALLERGIES)),
        patient: subject,
      });
    }
  }
  const group: FhirResource = {
    resourceType: 'Group',
    id: groupId,
    meta: { versionId: '1', lastUpdated: instant(0) },
    type: 'person',
    actual: true,
    name: `Patients of ${clinicId}`,
    quantity: byType.Patient.length,
    member: byType.Patient.map((patient) => ({ entity: { reference: `Patient/${patient.id}` } })),
  };
  return { clinicId, groupId, group, byType };
}

/** The id of the patient a resource is about (Patient: itself), or null. */
export function patientIdOf(resource: FhirResource): string | null {
  if (resource.resourceType === 'Patient') return resource.id;
  const reference = ((resource.subject ?? resource.patient) as { reference?: string } | undefined)?.reference;
  return reference?.startsWith('Patient/') ? reference.slice('Patient/'.length) : null;
}
