'use client';
// The form that replaces a patient's primary or secondary coverage on file (PUT /api/patients/{id}/coverage): the
// payer from the directory or typed, member id and group number, each field's problem next to it.
import { useState, type FormEvent } from 'react';
import { Form } from '@/components/form';
import type { PatientDetail } from '@/lib/patients/get-patient';
import { findPayerName } from '@/lib/eligibility/payer-directory';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { ErrorNote } from '@/components/error-note';
import { OTHER_PAYER, PayerOptions } from '@/components/eligibility/payer-options';
import { describeIssue, issueField } from '@/components/describe-api-error';
import { FieldIssue, TextField } from '@/components/form-field';

/** Replaces the primary or secondary coverage on file (payer from the directory or typed, member id, group number). */
export function CoverageForm({
  patient,
  rank,
  onCancel,
  onSaved,
}: {
  patient: PatientDetail;
  rank: 'primary' | 'secondary';
  onCancel: () => void;
  onSaved: () => void;
}) {
  const onFile = rank === 'secondary' ? patient.secondaryCoverage : patient.coverage;
  // Ids of their own per rank: both forms' labels stay tied to their inputs.
  const id = (name: string) => (rank === 'secondary' ? `secondary-coverage-${name}` : `coverage-${name}`);
  const [payerId, setPayerId] = useState(onFile?.payerId ?? '');
  const [memberId, setMemberId] = useState(onFile?.memberId ?? '');
  const [groupNumber, setGroupNumber] = useState(onFile?.groupNumber ?? '');
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const listed = findPayerName(payerId) !== null;
  const [other, setOther] = useState(!!payerId && !listed);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setIssues({});
    try {
      await apiFetch(`/api/patients/${encodeURIComponent(patient.id)}/coverage`, {
        method: 'PUT',
        json: { payerId, memberId, rank, ...(groupNumber.trim() ? { groupNumber } : {}) },
      });
      onSaved();
    } catch (failure) {
      if (failure instanceof ApiError && failure.body.issues) {
        setIssues(
          Object.fromEntries(failure.body.issues.map((i) => [issueField(i.path), describeIssue(i.path, i.message)])),
        );
      }
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form
      onSubmit={save}
      noValidate
      aria-label={rank === 'secondary' ? 'Change secondary coverage' : 'Change coverage on file'}
    >
      <label htmlFor={id('payer')}>Payer</label>
      <select
        id={id('payer')}
        value={other ? OTHER_PAYER : payerId}
        onChange={(e) => {
          const value = e.target.value;
          setOther(value === OTHER_PAYER);
          setPayerId(value === OTHER_PAYER ? '' : value);
        }}
      >
        <PayerOptions other="enter its payer id" />
      </select>
      {other ? (
        <TextField id={id('payerId')} label="Payer id" value={payerId} onChange={setPayerId} issue={issues.payerId} />
      ) : (
        // A payer id refused while a listed payer is chosen is still said, under the list.
        <FieldIssue id={id('payerId')} issue={issues.payerId} />
      )}
      <TextField
        id={id('memberId')}
        label="Member id"
        value={memberId}
        onChange={setMemberId}
        issue={issues.memberId}
      />
      <TextField
        id={id('groupNumber')}
        label="Group number (optional)"
        value={groupNumber}
        onChange={setGroupNumber}
        issue={issues.groupNumber}
      />
      <p className="muted">Claims need an active eligibility check of the new coverage: check it again after saving.</p>
      <div className="fd-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save coverage on file'}
        </button>
        <button type="button" className="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
      {error ? <ErrorNote error={error} otherwise="The coverage could not be saved. Try again." /> : null}
    </Form>
  );
}
