'use client';
// One service line of the claim editor: procedure, modifiers, the diagnoses it treats, units, charge (dollars) and
// its own date of service, each beside the problem found in it (paths lines.<i>.<field>), and its remove button.
import { TextField } from '@/components/form-field';
import { issueAt, type LineForm } from './claim-form';
import type { IssueMap } from './claim-issues';

const FIELDS: {
  field: string;
  form: Exclude<keyof LineForm, 'key'>;
  label: string;
  type?: string;
  inputMode?: 'numeric' | 'decimal';
  placeholder?: string;
}[] = [
  { field: 'procedureCode', form: 'procedureCode', label: 'Procedure code (CPT/HCPCS)' },
  { field: 'modifiers', form: 'modifiers', label: 'Modifiers (up to 4, comma separated)' },
  { field: 'diagnosisPointers', form: 'pointers', label: 'Diagnosis numbers this line treats' },
  { field: 'units', form: 'units', label: 'Units', inputMode: 'numeric' },
  { field: 'chargeCents', form: 'charge', label: 'Charge (dollars)', inputMode: 'decimal', placeholder: '125.00' },
  { field: 'serviceDate', form: 'serviceDate', label: "Date of service (empty: the claim's)", type: 'date' },
];

export function ServiceLineFields({
  line,
  index,
  issues,
  onChange,
  onRemove,
}: {
  line: LineForm;
  index: number;
  issues: IssueMap;
  onChange: (patch: Partial<LineForm>) => void;
  /** Absent for a claim's only line: a claim keeps at least one. */
  onRemove?: () => void;
}) {
  return (
    <fieldset className="billing-line" data-testid={`claim-line-${index}`}>
      <legend>Line {index + 1}</legend>
      <div className="billing-grid">
        {FIELDS.map(({ field, form, ...input }) => (
          <TextField
            key={field}
            id={`claim-lines-${index}-${field}`}
            value={line[form]}
            onChange={(value) => onChange({ [form]: value })}
            issue={issueAt(issues, `lines.${index}.${field}`)}
            {...input}
          />
        ))}
      </div>
      {onRemove ? (
        <p>
          <button type="button" className="secondary" onClick={onRemove}>
            Remove line {index + 1}
          </button>
        </p>
      ) : null}
    </fieldset>
  );
}
