'use client';
// The claim editor: a draft's patient, date and place of service, diagnoses (up to 12) and service lines
// (up to 50), saved through POST /api/claims (a new draft) or PATCH /api/claims/{id}. "Check for problems" saves
// and asks POST /api/claims/{id}/scrub, and each problem is shown next to its field before anything is sent;
// "Submit" saves and calls POST /api/claims/submit, which the step-up dialog guards (apiFetch opens it). Charges
// are typed in dollars and sent as integer cents.
import { useRef, useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { describeApiError } from '@/components/describe-api-error';
import { centsToDollarInput, formatDollars, parseDollarInput } from './format';
import { groupIssues, whereToFix, type ApiIssue, type IssueMap } from './claim-issues';
import { ClaimPatientPicker, type ChosenPatient } from './claim-patient-picker';

export const MAX_DIAGNOSES = 12;
export const MAX_LINES = 50;

/** What the editor starts from: a stored draft (GET /api/claims/{id}) or nothing. */
export type ClaimDraftView = {
  claimId: string;
  patientId: string;
  patientName?: string | null;
  patientBirthDate?: string | null;
  serviceDate: string;
  placeOfService?: string | null;
  diagnoses?: string[];
  renderingNpi?: string | null;
  lines?: {
    procedureCode: string;
    modifiers?: string[];
    diagnosisPointers: number[];
    units: number;
    chargeCents: number;
    serviceDate?: string | null;
  }[];
};

type LineForm = {
  key: number;
  procedureCode: string;
  modifiers: string;
  pointers: string;
  units: string;
  charge: string;
  serviceDate: string;
};

// The place-of-service codes a clinic uses most (CMS Place of Service code set); any other two digits can be typed.
const PLACES_OF_SERVICE: [string, string][] = [
  ['11', '11 · Office'],
  ['02', '02 · Telehealth (not in the home)'],
  ['10', "10 · Telehealth in the patient's home"],
  ['12', '12 · Home'],
  ['19', '19 · Off-campus outpatient hospital'],
  ['20', '20 · Urgent care facility'],
  ['22', '22 · On-campus outpatient hospital'],
  ['23', '23 · Emergency room (hospital)'],
  ['49', '49 · Independent clinic'],
  ['81', '81 · Independent laboratory'],
];

let nextKey = 1;
const emptyLine = (): LineForm => ({
  key: nextKey++,
  procedureCode: '',
  modifiers: '',
  pointers: '1',
  units: '1',
  charge: '',
  serviceDate: '',
});

function linesFrom(draft?: ClaimDraftView): LineForm[] {
  if (!draft?.lines?.length) return [emptyLine()];
  return draft.lines.map((line) => ({
    key: nextKey++,
    procedureCode: line.procedureCode,
    modifiers: (line.modifiers ?? []).join(', '),
    pointers: line.diagnosisPointers.join(', '),
    units: String(line.units),
    charge: centsToDollarInput(line.chargeCents),
    serviceDate: line.serviceDate ?? '',
  }));
}

const splitList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);

/** The API body from the form, or the fields the form itself can tell are wrong (in the API's paths). */
function buildBody(form: {
  patientId: string;
  serviceDate: string;
  placeOfService: string;
  renderingNpi: string;
  diagnoses: string[];
  lines: LineForm[];
}): { body: Record<string, unknown> | null; problems: IssueMap } {
  const problems: IssueMap = {};
  const add = (path: string, message: string) => (problems[path] ??= []).push(message);
  if (!form.patientId.trim()) add('patientId', 'Choose the patient.');
  if (!form.serviceDate) add('serviceDate', 'Enter the date of service.');
  const lines = form.lines.map((line, i) => {
    const units = Number(line.units);
    if (!/^\d+$/.test(line.units.trim()) || units < 1) add(`lines.${i}.units`, 'Enter whole units, 1 or more.');
    const chargeCents = parseDollarInput(line.charge);
    if (chargeCents === null || chargeCents <= 0)
      add(`lines.${i}.chargeCents`, 'Enter the charge in dollars, such as 125.00.');
    const pointerParts = splitList(line.pointers);
    if (!pointerParts.length || pointerParts.some((p) => !/^\d+$/.test(p)))
      add(`lines.${i}.diagnosisPointers`, 'Enter the numbers of the diagnoses this line treats, such as 1 or 1, 2.');
    const modifiers = splitList(line.modifiers).map((m) => m.toUpperCase());
    return {
      procedureCode: line.procedureCode.trim().toUpperCase(),
      ...(modifiers.length ? { modifiers } : {}),
      diagnosisPointers: pointerParts.map(Number),
      units,
      chargeCents: chargeCents ?? 0,
      ...(line.serviceDate ? { serviceDate: line.serviceDate } : {}),
    };
  });
  if (Object.keys(problems).length) return { body: null, problems };
  return {
    body: {
      patientId: form.patientId.trim(),
      serviceDate: form.serviceDate,
      placeOfService: form.placeOfService.trim() || '11',
      diagnoses: form.diagnoses.map((d) => d.trim().toUpperCase()),
      lines,
      ...(form.renderingNpi.trim() ? { renderingNpi: form.renderingNpi.trim() } : {}),
    },
    problems,
  };
}

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
  const [diagnoses, setDiagnoses] = useState<string[]>(draft?.diagnoses?.length ? draft.diagnoses : ['']);
  const [lines, setLines] = useState<LineForm[]>(() => linesFrom(draft));
  const [fieldIssues, setFieldIssues] = useState<IssueMap>({});
  const [otherIssues, setOtherIssues] = useState<ApiIssue[]>([]);
  const [error, setError] = useState<string | null>(null);
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
      if (!showIssues(issuesOf(failure))) setError(describeApiError(failure, { withReference: true }));
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
      if (!showIssues(issuesOf(failure)))
        setError(describeApiError(failure, { withReference: true, otherwise: 'The request failed. Try again.' }));
    } finally {
      setBusy(null);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void run('submit');
  }

  const updateLine = (index: number, patch: Partial<LineForm>) =>
    setLines((now) => now.map((line, i) => (i === index ? { ...line, ...patch } : line)));

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="claim-editor-title" data-testid="claim-editor">
      <h2 id="claim-editor-title" className="billing-title">
        {claimId ? `Draft claim ${claimId}` : 'New claim'}
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
        <div>
          <ClaimPatientPicker
            chosen={patient}
            locked={claimId !== null}
            onChoose={setPatient}
            describedBy={describedBy('patientId', fieldIssues)}
          />
          <FieldError field="patientId" issues={fieldIssues} />
        </div>
        <div>
          <label htmlFor="claim-serviceDate">Date of service</label>
          <input
            id="claim-serviceDate"
            type="date"
            value={serviceDate}
            onChange={(e) => setServiceDate(e.target.value)}
            {...describedBy('serviceDate', fieldIssues)}
          />
          <FieldError field="serviceDate" issues={fieldIssues} />
        </div>
        <div>
          <label htmlFor="claim-placeOfService">Place of service</label>
          <select
            id="claim-placeOfService"
            value={placeOfService}
            onChange={(e) => setPlaceOfService(e.target.value)}
            {...describedBy('placeOfService', fieldIssues)}
          >
            {PLACES_OF_SERVICE.some(([code]) => code === placeOfService) ? null : (
              <option value={placeOfService}>{placeOfService}</option>
            )}
            {PLACES_OF_SERVICE.map(([code, label]) => (
              <option key={code} value={code}>
                {label}
              </option>
            ))}
          </select>
          <FieldError field="placeOfService" issues={fieldIssues} />
        </div>
        <div>
          <label htmlFor="claim-renderingNpi">Rendering provider NPI (empty: the clinic&apos;s)</label>
          <input
            id="claim-renderingNpi"
            inputMode="numeric"
            value={renderingNpi}
            onChange={(e) => setRenderingNpi(e.target.value)}
            {...describedBy('renderingNpi', fieldIssues)}
          />
          <FieldError field="renderingNpi" issues={fieldIssues} />
        </div>
      </div>

      <fieldset className="billing-fieldset">
        <legend>Diagnoses (ICD-10-CM, the first is the principal)</legend>
        <FieldError field="diagnoses" issues={fieldIssues} />
        {diagnoses.map((code, i) => (
          <div key={i} className="row">
            <div style={{ flex: '1 1 12rem' }}>
              <label htmlFor={`claim-diagnoses-${i}`}>Diagnosis {i + 1}</label>
              <input
                id={`claim-diagnoses-${i}`}
                value={code}
                onChange={(e) => setDiagnoses((now) => now.map((d, j) => (j === i ? e.target.value : d)))}
                autoComplete="off"
                {...describedBy(`diagnoses.${i}`, fieldIssues)}
              />
              <FieldError field={`diagnoses.${i}`} issues={fieldIssues} />
            </div>
            {diagnoses.length > 1 ? (
              <button
                type="button"
                className="secondary"
                onClick={() => setDiagnoses((now) => now.filter((_, j) => j !== i))}
              >
                Remove diagnosis {i + 1}
              </button>
            ) : null}
          </div>
        ))}
        {diagnoses.length < MAX_DIAGNOSES ? (
          <p>
            <button type="button" className="secondary" onClick={() => setDiagnoses((now) => [...now, ''])}>
              Add a diagnosis
            </button>
          </p>
        ) : (
          <p className="muted">A claim takes at most {MAX_DIAGNOSES} diagnoses.</p>
        )}
      </fieldset>

      <h3>Service lines</h3>
      <FieldError field="lines" issues={fieldIssues} />
      {lines.map((line, i) => {
        const id = (field: string) => `claim-lines-${i}-${field}`;
        return (
          <fieldset key={line.key} className="billing-line" data-testid={`claim-line-${i}`}>
            <legend>Line {i + 1}</legend>
            <div className="billing-grid">
              <div>
                <label htmlFor={id('procedureCode')}>Procedure code (CPT/HCPCS)</label>
                <input
                  id={id('procedureCode')}
                  value={line.procedureCode}
                  onChange={(e) => updateLine(i, { procedureCode: e.target.value })}
                  autoComplete="off"
                  {...describedBy(`lines.${i}.procedureCode`, fieldIssues)}
                />
                <FieldError field={`lines.${i}.procedureCode`} issues={fieldIssues} />
              </div>
              <div>
                <label htmlFor={id('modifiers')}>Modifiers (up to 4, comma separated)</label>
                <input
                  id={id('modifiers')}
                  value={line.modifiers}
                  onChange={(e) => updateLine(i, { modifiers: e.target.value })}
                  autoComplete="off"
                  {...describedBy(`lines.${i}.modifiers`, fieldIssues)}
                />
                <FieldError field={`lines.${i}.modifiers`} issues={fieldIssues} />
              </div>
              <div>
                <label htmlFor={id('diagnosisPointers')}>Diagnosis numbers this line treats</label>
                <input
                  id={id('diagnosisPointers')}
                  value={line.pointers}
                  onChange={(e) => updateLine(i, { pointers: e.target.value })}
                  autoComplete="off"
                  {...describedBy(`lines.${i}.diagnosisPointers`, fieldIssues)}
                />
                <FieldError field={`lines.${i}.diagnosisPointers`} issues={fieldIssues} />
              </div>
              <div>
                <label htmlFor={id('units')}>Units</label>
                <input
                  id={id('units')}
                  inputMode="numeric"
                  value={line.units}
                  onChange={(e) => updateLine(i, { units: e.target.value })}
                  {...describedBy(`lines.${i}.units`, fieldIssues)}
                />
                <FieldError field={`lines.${i}.units`} issues={fieldIssues} />
              </div>
              <div>
                <label htmlFor={id('chargeCents')}>Charge (dollars)</label>
                <input
                  id={id('chargeCents')}
                  inputMode="decimal"
                  value={line.charge}
                  onChange={(e) => updateLine(i, { charge: e.target.value })}
                  placeholder="125.00"
                  {...describedBy(`lines.${i}.chargeCents`, fieldIssues)}
                />
                <FieldError field={`lines.${i}.chargeCents`} issues={fieldIssues} />
              </div>
              <div>
                <label htmlFor={id('serviceDate')}>Date of service (empty: the claim&apos;s)</label>
                <input
                  id={id('serviceDate')}
                  type="date"
                  value={line.serviceDate}
                  onChange={(e) => updateLine(i, { serviceDate: e.target.value })}
                  {...describedBy(`lines.${i}.serviceDate`, fieldIssues)}
                />
                <FieldError field={`lines.${i}.serviceDate`} issues={fieldIssues} />
              </div>
            </div>
            {lines.length > 1 ? (
              <p>
                <button
                  type="button"
                  className="secondary"
                  onClick={() => setLines((now) => now.filter((_, j) => j !== i))}
                >
                  Remove line {i + 1}
                </button>
              </p>
            ) : null}
          </fieldset>
        );
      })}
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
        <p role="alert" className="error" data-testid="claim-editor-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

function describedBy(field: string, issues: IssueMap) {
  return issues[field]?.length
    ? { 'aria-invalid': true as const, 'aria-describedby': `${errorId(field)}` }
    : { 'aria-invalid': undefined };
}

const errorId = (field: string) => `claim-error-${field.replaceAll('.', '-')}`;

function FieldError({ field, issues }: { field: string; issues: IssueMap }) {
  const messages = issues[field];
  if (!messages?.length) return null;
  return (
    <div id={errorId(field)} className="error" data-testid={`claim-error-${field}`}>
      {messages.join(' ')}
    </div>
  );
}
