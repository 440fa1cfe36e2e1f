'use client';
// The claim editor's diagnoses: up to twelve ICD-10-CM codes, the first the principal, each beside the problem found
// in it (paths diagnoses.<i>), with the list's own problem (path diagnoses) above them.
import { FieldIssue, TextField } from '@/components/form-field';
import { issueAt, MAX_DIAGNOSES } from './claim-form';
import type { IssueMap } from './claim-issues';

export function DiagnosisFields({
  diagnoses,
  issues,
  onChange,
}: {
  diagnoses: string[];
  issues: IssueMap;
  onChange: (diagnoses: string[]) => void;
}) {
  return (
    <fieldset className="billing-fieldset">
      <legend>Diagnoses (ICD-10-CM, the first is the principal)</legend>
      <FieldIssue id="claim-diagnoses" issue={issueAt(issues, 'diagnoses')} />
      {diagnoses.map((code, i) => (
        <div key={i} className="row">
          <TextField
            id={`claim-diagnoses-${i}`}
            label={`Diagnosis ${i + 1}`}
            className="billing-diagnosis"
            value={code}
            onChange={(value) => onChange(diagnoses.map((d, j) => (j === i ? value : d)))}
            issue={issueAt(issues, `diagnoses.${i}`)}
          />
          {diagnoses.length > 1 ? (
            <button type="button" className="secondary" onClick={() => onChange(diagnoses.filter((_, j) => j !== i))}>
              Remove diagnosis {i + 1}
            </button>
          ) : null}
        </div>
      ))}
      {diagnoses.length < MAX_DIAGNOSES ? (
        <p>
          <button type="button" className="secondary" onClick={() => onChange([...diagnoses, ''])}>
            Add a diagnosis
          </button>
        </p>
      ) : (
        <p className="muted">A claim takes at most {MAX_DIAGNOSES} diagnoses.</p>
      )}
    </fieldset>
  );
}
