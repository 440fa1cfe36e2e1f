// A pull's result as a table of what it saved (and removed), by record type in a clinic's words.
import { useClinicTime } from '@/components/clinic-time';
import { DataTable, type Column } from '@/components/data-table';
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

type Counted = [type: string, saved: number];

export function PullCounts({ result, label }: { result: PullResult; label: string }) {
  const clock = useClinicTime();
  const anyDeleted = Object.values(result.deleted ?? {}).some((n) => n > 0);
  const columns: Column<Counted>[] = [
    { header: 'Records', cell: ([type]) => RECORD_WORDS[type] ?? type },
    { header: 'Saved', cell: ([, saved]) => saved, cellProps: ([type]) => ({ 'data-testid': `count-${type}` }) },
  ];
  if (anyDeleted) {
    columns.push({
      header: 'Removed',
      cell: ([type]) => result.deleted?.[type] ?? 0,
      cellProps: ([type]) => ({ 'data-testid': `deleted-${type}` }),
    });
  }
  return (
    <div aria-live="polite">
      <p className="muted">
        {label}: stored in the {result.fhirStore} FHIR store
        {result.range ? `, ${clock.dateTime(result.range.from)} to ${clock.dateTime(result.range.to)}` : ''}
      </p>
      <DataTable
        rows={Object.entries(result.upserted)}
        label={label}
        empty="No records in this pull."
        stack="admin"
        rowKey={([type]) => type}
        columns={columns}
      />
    </div>
  );
}
