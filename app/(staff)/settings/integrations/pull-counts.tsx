// A pull's result as a table of what it saved (and removed), by record type in a clinic's words.
import { useClinicTime } from '@/components/clinic-time';
import type { PullResult } from './connection';

/** The FHIR resource types a pull saves, in a clinic's words. */
const RECORD_WORDS: Record<string, string> = {
  Patient: 'Patients',
  Encounter: 'Visits',
  Observation: 'Observations (vitals, results)',
  Condition: 'Conditions (diagnoses)',
  MedicationRequest: 'Medications',
  AllergyIntolerance: 'Allergies',
};

export function PullCounts({ result, label }: { result: PullResult; label: string }) {
  const clock = useClinicTime();
  const anyDeleted = Object.values(result.deleted ?? {}).some((n) => n > 0);
  return (
    <div aria-live="polite">
      <table aria-label={label}>
        <caption className="muted">
          {label}: stored in the {result.fhirStore} FHIR store
          {result.range ? `, ${clock.dateTime(result.range.from)} to ${clock.dateTime(result.range.to)}` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Records</th>
            <th scope="col">Saved</th>
            {anyDeleted && <th scope="col">Removed</th>}
          </tr>
        </thead>
        <tbody>
          {Object.entries(result.upserted).map(([type, n]) => (
            <tr key={type}>
              <td>{RECORD_WORDS[type] ?? type}</td>
              <td data-testid={`count-${type}`}>{n}</td>
              {anyDeleted && <td data-testid={`deleted-${type}`}>{result.deleted?.[type] ?? 0}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
