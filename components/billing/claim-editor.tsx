'use client';
// The claim editor: a draft's patient, date and place of service, diagnoses (up to 12) and service lines
// (up to 50), saved through POST /api/claims (a new draft) or PATCH /api/claims/{id}. "Check for problems" saves
// and asks POST /api/claims/{id}/scrub, and each problem is shown next to its field before anything is sent;
// "Submit" saves and calls POST /api/claims/submit, which the step-up dialog guards (apiFetch opens it). Charges
// are typed in dollars and sent as integer cents.
import { useRef, useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { Form } from '@/components/form';
import { Field, FieldIssue, TextField } from '@/components/form-field';
import { ErrorNote } from '@/components/error-note';
import { formatDollars, parseDollarInput } from './format';
import {
  buildBody,
  emptyLine,
  issueAt,
  linesFrom,
  MAX_LINES,
  PLACES_OF_SERVICE,
  type ClaimDraftView,
  type LineForm,
} from './claim-form';
import { groupIssues, whereToFix, type ApiIssue, type IssueMap } from './claim-issues';
import { ClaimPatientPicker, type ChosenPatient } from './claim-patient-picker';
import { DiagnosisFields } from './diagnosis-fields';
import { ServiceLineFields } from './service-line-fields';

function issuesOf(error: unknown): ApiIssue[] {
  return error instanceof ApiError ? ((error.body.issues ?? []) as ApiIssue[]) : [];
}

/** A new claim's starting fields, such as "Bill this visit" passes from an appointment. */
export type ClaimPrefill = {
  patient?: ChosenPatient;
  serviceDate?: string;
  placeOfService?: string;
  renderingNpi?: string;
};

export function ClaimEditor({
  draft,
  prefill,
  today,
  onSaved,
  onSubmitted,
}: {
  draft?: ClaimDraftView;
  prefill?: ClaimPrefill;
  /** The clinic's today (YYYY-MM-DD): a new claim's default date of service. */
  today: string;
  /** Called with the claim id once a new draft exists (the page moves to /claims/{id}). */
  onSaved?: (claimId: string) => void;
  /** Called once the claim was sent: the page shows the claim and its timeline. */
  onSubmitted: (claimId: string) => void;
}) {
  const [claimId, setClaimId] = useState<string | null>(draft?.claimId ?? null);
  const [patient, setPatient] = useState<ChosenPatient | null>(
    draft
      ? { patientId: draft.patientId, name: draft.patientName ?? null, birthDate: draft.patientBirthDate ?? null }
      : (prefill?.patient ?? null),
  );
  const patientId = patient?.patientId ?? '';
  const [serviceDate, setServiceDate] = useState(draft?.serviceDate ?? prefill?.serviceDate ?? today);
  const [placeOfService, setPlaceOfService] = useState(draft?.placeOfService ?? prefill?.placeOfService ?? '11');
  const [renderingNpi, setRenderingNpi] = useState(draft?.renderingNpi ?? prefill?.renderingNpi ?? '');
  const [diagnoses, setDiagnoses] = useState<string[]>(draft?.diagnoses.length ? draft.diagnoses : ['']);
  const [lines, setLines] = useState<LineForm[]>(() => linesFrom(draft));
  const [fieldIssues, setFieldIssues] = useState<IssueMap>({});
  const [otherIssues, setOtherIssues] = useState<ApiIssue[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState<null | 'save' | 'check' | 'submit'>(null);
  const problemsRef = useRef<HTMLDivElement>(null);

  const totalCents = lines.reduce((sum, line) => sum + (parseDollarInput(line.charge) ?? 0), 0);

  function showIssues(issues: ApiIssue[], local: IssueMap = {}) {
    const { byField, elsewhere } = groupIssues(issues);
    // A line whose date was left empty takes the claim's date: its date problems belong to the claim's field.
    for (const [field, messages] of Object.entries(byField)) {
      const match = /^lines\.(\d+)\.serviceDate$/.exec(field);
      if (match && !lines[Number(match[1])]?.serviceDate) {
        delete byField[field];
        byField.serviceDate = [...new Set([...(byField.serviceDate ?? []), ...messages])];
      }
    }
    const merged = { ...local };
    for (const [field, messages] of Object.entries(byField)) merged[field] = [...(merged[field] ?? []), ...messages];
    setFieldIssues(merged);
    setOtherIssues(elsewhere);
    const count = Object.values(merged).reduce((n, m) => n + m.length, 0) + elsewhere.length;
    if (count) {
      setStatus(`${count} problem${count === 1 ? '' : 's'} to fix before this claim can be sent.`);
      problemsRef.current?.focus();
    }
    return count;
  }

  /** Saves the draft (creating it the first time); the claim id, or null when it could not be saved. */
  async function save(): Promise<string | null> {
    const { body, problems } = buildBody({ patientId, serviceDate, placeOfService, renderingNpi, diagnoses, lines });
    if (!body) {
      showIssues([], problems);
      return null;
    }
    try {
      if (claimId) {
        // A draft's patient does not change; an emptied rendering NPI goes back to the clinic's (null).
        const { patientId: _patient, ...changes } = body;
        await apiFetch(`/api/claims/${encodeURIComponent(claimId)}`, {
          method: 'PATCH',
          json: { ...changes, renderingNpi: changes.renderingNpi ?? null },
        });
        return claimId;
      }
      const created = await apiFetch<{ claimId: string }>('/api/claims', { method: 'POST', json: body });
      setClaimId(created.claimId);
      onSaved?.(created.claimId);
      return created.claimId;
    } catch (failure) {
      if (!showIssues(issuesOf(failure))) setError(failure);
      return null;
    }
  }

  async function run(action: 'save' | 'check' | 'submit') {
    setBusy(action);
    setError(null);
    setStatus('');
    setFieldIssues({});
    setOtherIssues([]);
    try {
      const id = await save();
      if (!id) return;
      if (action === 'save') {
        setStatus('Draft saved.');
        return;
      }
      if (action === 'check') {
        const result = await apiFetch<{ issues: ApiIssue[] }>(`/api/claims/${encodeURIComponent(id)}/scrub`, {
          method: 'POST',
        });
        if (!showIssues(result.issues)) setStatus('Draft saved. No problems found: the claim is ready to submit.');
        return;
      }
      // A fresh key per click: a retry after a fix is a new submission, while apiFetch's retry after the step-up
      // dialog resends this same body (and key), so a slow answer never sends the claim twice.
      await apiFetch('/api/claims/submit', {
        method: 'POST',
        json: { claimId: id, idempotencyKey: crypto.randomUUID() },
      });
      setStatus('Claim submitted.');
      onSubmitted(id);
    } catch (failure) {
      if (!showIssues(issuesOf(failure))) setError(failure);
    } finally {
      setBusy(null);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void run('submit');
  }

  return (
    <Form className="card" onSubmit={submit} noValidate aria-labelledby="claim-editor-title" data-testid="claim-editor">
      <h2 id="claim-editor-title" className="billing-title">
        {claimId ? `Draft claim ${claimId}` : 'Claim details'}
      </h2>
      <div ref={problemsRef} tabIndex={-1}>
        {otherIssues.length ? (
          <div role="alert" className="error" data-testid="claim-other-issues">
            <strong>Fix these outside this form first:</strong>
            <ul>
              {otherIssues.map((issue) => (
                <li key={`${issue.path}:${issue.message}`}>
                  {whereToFix(issue.path)}: {issue.message}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>

      <div className="billing-grid">
        <ClaimPatientPicker
          chosen={patient}
          locked={claimId !== null}
          onChoose={setPatient}
          issue={issueAt(fieldIssues, 'patientId')}
        />
        <TextField
          id="claim-serviceDate"
          label="Date of service"
          type="date"
          value={serviceDate}
          onChange={setServiceDate}
          issue={issueAt(fieldIssues, 'serviceDate')}
        />
        <Field id="claim-placeOfService" label="Place of service" issue={issueAt(fieldIssues, 'placeOfService')}>
          {(control) => (
            <select {...control} value={placeOfService} onChange={(e) => setPlaceOfService(e.target.value)}>
              {PLACES_OF_SERVICE.some(([code]) => code === placeOfService) ? null : (
                <option value={placeOfService}>{placeOfService}</option>
              )}
              {PLACES_OF_SERVICE.map(([code, label]) => (
                <option key={code} value={code}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField
          id="claim-renderingNpi"
          label="Rendering provider NPI (empty: the clinic's)"
          inputMode="numeric"
          value={renderingNpi}
          onChange={setRenderingNpi}
          issue={issueAt(fieldIssues, 'renderingNpi')}
        />
      </div>

      <DiagnosisFields diagnoses={diagnoses} issues={fieldIssues} onChange={setDiagnoses} />

      <h3>Service lines</h3>
      <FieldIssue id="claim-lines" issue={issueAt(fieldIssues, 'lines')} />
      {lines.map((line, i) => (
        <ServiceLineFields
          key={line.key}
          line={line}
          index={i}
          issues={fieldIssues}
          onChange={(patch) => setLines((now) => now.map((l, j) => (j === i ? { ...l, ...patch } : l)))}
          onRemove={lines.length > 1 ? () => setLines((now) => now.filter((_, j) => j !== i)) : undefined}
        />
      ))}
      {lines.length < MAX_LINES ? (
        <p>
          <button type="button" className="secondary" onClick={() => setLines((now) => [...now, emptyLine()])}>
            Add a line
          </button>
        </p>
      ) : null}
      <p>
        <strong>Total charge:</strong> <span data-testid="claim-total">{formatDollars(totalCents)}</span>
      </p>

      <div className="billing-actions">
        <button type="button" className="secondary" disabled={busy !== null} onClick={() => void run('save')}>
          {busy === 'save' ? 'Saving…' : 'Save draft'}
        </button>
        <button type="button" className="secondary" disabled={busy !== null} onClick={() => void run('check')}>
          {busy === 'check' ? 'Checking…' : 'Check for problems'}
        </button>
        <button type="submit" disabled={busy !== null}>
          {busy === 'submit' ? 'Submitting…' : 'Submit claim'}
        </button>
      </div>
      <p role="status" data-testid="claim-editor-status">
        {status}
      </p>
      {error ? (
        <ErrorNote error={error} otherwise="The request failed. Try again." testId="claim-editor-error" />
      ) : null}
    </Form>
  );
}
