'use client';
// The verify form and its result. The form validates with the route's own schema, so the messages are the
// API's; picking one of today's appointments fills in what the schedule knows (the date of birth is typed).
// When the member id or payer checked is not the patient's coverage on file, the result says so and offers to
// make it the coverage on file (PUT /api/patients/{id}/coverage; claims:write), which claims need.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { VerifyEligibilityBody } from '@/lib/eligibility/verify-eligibility-body';
import type { EligibilityResult } from '@/lib/eligibility/eligibility-result';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { describeApiError } from '@/components/describe-api-error';
import { formatDollars } from '@/components/eligibility/format-dollars';
import { networkLabel } from '@/components/eligibility/network-label';
import { RejectionNote } from '@/components/eligibility/rejection-note';
import { StatusBadge } from '@/components/eligibility/status-badge';

type Appointment = {
  id: string;
  patientId: string;
  patientName: string;
  start: string;
  memberId: string | null;
  payerId: string | null;
  payerName: string | null;
  providerNpi: string | null;
};

type Form = {
  patientId: string;
  firstName: string;
  lastName: string;
  dob: string;
  memberId: string;
  payerName: string;
  payerId: string;
  npi: string;
  serviceType: string;
  dos: string;
};

const todayUtc = () => new Date().toISOString().slice(0, 10);
const EMPTY: Form = {
  patientId: '',
  firstName: '',
  lastName: '',
  dob: '',
  memberId: '',
  payerName: '',
  payerId: '',
  npi: '',
  serviceType: '30',
  dos: '',
};

// X12 service type codes with X12's own meanings (DECISIONS).
const SERVICE_TYPES = [
  ['30', '30 · Health benefit plan coverage'],
  ['1', '1 · Medical care'],
  ['98', '98 · Professional (physician) visit, office'],
  ['5', '5 · Diagnostic lab'],
  ['AL', 'AL · Vision (optometry)'],
] as const;

const FIELDS: { name: keyof Form; label: string; type?: string; hint?: string }[] = [
  { name: 'patientId', label: 'Patient id' },
  { name: 'firstName', label: 'First name (as on the plan)' },
  { name: 'lastName', label: 'Last name (as on the plan)' },
  { name: 'dob', label: 'Date of birth', type: 'date' },
  { name: 'memberId', label: 'Member id' },
  { name: 'payerName', label: 'Payer name', hint: 'e.g. Aetna; the payer id is looked up unless you give one' },
  { name: 'payerId', label: 'Payer id (optional)' },
  { name: 'npi', label: 'Rendering provider NPI' },
  { name: 'dos', label: 'Date of service (empty: today)', type: 'date' },
];

export function VerifyScreen() {
  const [appointments, setAppointments] = useState<Appointment[]>([]);
  const [form, setForm] = useState<Form>(EMPTY);
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<EligibilityResult | null>(null);
  // What the shown result asked about: the coverage a "use as coverage on file" would store.
  const [asked, setAsked] = useState<{ patientId: string; memberId: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // The list only fills the form in: without it the form is typed by hand, so a failure shows nothing.
    apiFetch<{ appointments: Appointment[] }>(`/api/appointments?date=${todayUtc()}`).then(
      (body) => setAppointments(body.appointments),
      () => undefined,
    );
  }, []);

  function pick(id: string) {
    const a = appointments.find((x) => x.id === id);
    if (!a) return;
    // The schedule shows "First Last"; the first word is taken as the first name (staff can correct it).
    const [first = '', ...rest] = a.patientName.split(' ');
    setForm({
      ...EMPTY,
      patientId: a.patientId,
      firstName: first,
      lastName: rest.join(' '),
      memberId: a.memberId ?? '',
      payerName: a.payerName ?? '',
      payerId: a.payerId ?? '',
      npi: a.providerNpi ?? '',
      dos: a.start.slice(0, 10),
    });
    setIssues({});
    setResult(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setResult(null);
    const body = {
      ...Object.fromEntries(Object.entries(form).filter(([, v]) => v.trim() !== '')),
      explain: true,
    };
    const parsed = VerifyEligibilityBody.safeParse(body);
    if (!parsed.success) {
      setIssues(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setIssues({});
    setBusy(true);
    try {
      setResult(await apiFetch<EligibilityResult>('/api/eligibility/verify', { method: 'POST', json: body }));
      setAsked({ patientId: parsed.data.patientId, memberId: parsed.data.memberId });
    } catch (failure) {
      if (failure instanceof ApiError) {
        setIssues(
          Object.fromEntries((failure.body.issues ?? []).map((i) => [i.path.replace(/^body\./, ''), i.message])),
        );
      }
      setError(
        describeApiError(failure, { withReference: true, otherwise: 'The check could not be sent. Try again.' }),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <form className="card" onSubmit={submit} noValidate>
        {appointments.length ? (
          <>
            <label htmlFor="verify-appointment">Fill in from today&apos;s appointment</label>
            <select id="verify-appointment" defaultValue="" onChange={(e) => pick(e.target.value)}>
              <option value="" disabled>
                Choose an appointment…
              </option>
              {appointments.map((a) => (
                <option key={a.id} value={a.id}>
                  {new Date(a.start).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })} · {a.patientName}
                  {a.memberId ? '' : ' (self-pay)'}
                </option>
              ))}
            </select>
          </>
        ) : null}
        {FIELDS.map((f) => (
          <div key={f.name}>
            <label htmlFor={`verify-${f.name}`}>{f.label}</label>
            <input
              id={`verify-${f.name}`}
              type={f.type ?? 'text'}
              value={form[f.name]}
              onChange={(e) => setForm({ ...form, [f.name]: e.target.value })}
              aria-invalid={issues[f.name] ? true : undefined}
              aria-describedby={issues[f.name] ? `verify-${f.name}-error` : undefined}
            />
            {f.hint ? <div className="muted">{f.hint}</div> : null}
            {issues[f.name] ? (
              <div id={`verify-${f.name}-error`} className="error">
                {issues[f.name]}
              </div>
            ) : null}
          </div>
        ))}
        <label htmlFor="verify-serviceType">Service type</label>
        <select
          id="verify-serviceType"
          value={form.serviceType}
          onChange={(e) => setForm({ ...form, serviceType: e.target.value })}
        >
          {SERVICE_TYPES.map(([code, label]) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
        </select>
        <div style={{ marginTop: '1rem' }}>
          <button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Check eligibility'}
          </button>
        </div>
        {error ? (
          <p role="alert" className="error">
            {error}
          </p>
        ) : null}
      </form>
      {result ? <ResultCard result={result} asked={asked} /> : null}
    </>
  );
}

function ResultCard({
  result,
  asked,
}: {
  result: EligibilityResult;
  asked: { patientId: string; memberId: string } | null;
}) {
  const evidence = result.evidence ?? {};
  const priorAuth = result.priorAuthRequired
    ? `Required${result.priorAuthCodes.length ? ` (${result.priorAuthCodes.join(', ')})` : ''}`
    : result.priorAuthCodes.length
      ? `Flagged for ${result.priorAuthCodes.join(', ')}`
      : 'Not flagged';
  // Each row names the evidence keys behind it (lib/x12's field paths).
  const rows: { label: string; value: ReactNode; keys: string[] }[] = [
    { label: 'Status', value: <StatusBadge status={result.status} />, keys: ['status', 'rejection'] },
    { label: 'Member', value: `${result.memberName ?? '—'} · ${result.memberId}`, keys: ['memberName', 'memberId'] },
    { label: 'Plan', value: result.planName ?? '—', keys: ['planName'] },
    { label: 'Group', value: result.groupNumber ?? '—', keys: ['groupNumber'] },
    {
      label: 'Coverage',
      value: `${result.coverageStart ?? 'not stated'} to ${result.coverageEnd ?? 'open-ended'}`,
      keys: ['coverageStart', 'coverageEnd'],
    },
    { label: 'Network', value: networkLabel(result.network), keys: ['network'] },
    {
      label: 'Deductible (individual)',
      value: formatDollars(result.deductible.individual),
      keys: ['deductible.individual'],
    },
    { label: 'Deductible met', value: formatDollars(result.deductible.met), keys: ['deductible.met'] },
    {
      label: 'Deductible remaining',
      value: formatDollars(result.deductible.remaining),
      keys: ['deductible.remaining'],
    },
    {
      label: 'Out-of-pocket maximum',
      value: formatDollars(result.outOfPocket.individual),
      keys: ['outOfPocket.individual'],
    },
    { label: 'Out-of-pocket met', value: formatDollars(result.outOfPocket.met), keys: ['outOfPocket.met'] },
    {
      label: 'Out-of-pocket remaining',
      value: formatDollars(result.outOfPocket.remaining),
      keys: ['outOfPocket.remaining'],
    },
    { label: 'Primary care copay', value: formatDollars(result.copay.primaryCare), keys: ['copay.primaryCare'] },
    { label: 'Specialist copay', value: formatDollars(result.copay.specialist), keys: ['copay.specialist'] },
    {
      label: 'Coinsurance',
      value: result.coinsurance === null ? '—' : `${result.coinsurance} %`,
      keys: ['coinsurance'],
    },
    { label: 'Prior authorization', value: priorAuth, keys: ['priorAuthRequired', 'priorAuthCodes'] },
  ];
  return (
    <section className="card" aria-label="Eligibility result" data-testid="verify-result" data-status={result.status}>
      <h2>Result</h2>
      <p className="muted">
        {result.mode === 'sandbox' ? 'Sandbox answer (demo payer). ' : ''}
        Payer {result.payerId} · checked {new Date(result.verifiedAt).toLocaleString()}
        {result.cached ? ' (a check from the last 24 hours; the payer was not asked again)' : ''}
      </p>
      {result.rejection ? <RejectionNote rejection={result.rejection} /> : null}
      <CoverageOnFileNote result={result} asked={asked} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
              <th scope="col">From the payer&apos;s answer</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                <td>{row.value}</td>
                <td className="mono">
                  {[...new Set(row.keys.flatMap((key) => evidence[key] ?? []))].map((segment) => (
                    <div key={segment}>{segment}</div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const COVERAGE_ON_FILE_TEXT = {
  match: "This member id and payer are the patient's coverage on file.",
  mismatch:
    "This member id or payer is not the patient's coverage on file: a claim needs a check of the coverage on file.",
  none: 'The patient has no coverage on file: a claim needs a check of the coverage on file.',
} as const;

/** Whether the check was of the patient's coverage on file; when not, a button that makes it so. */
function CoverageOnFileNote({
  result,
  asked,
}: {
  result: EligibilityResult;
  asked: { patientId: string; memberId: string } | null;
}) {
  const [state, setState] = useState<{ busy: boolean; saved: boolean; error: string | null }>({
    busy: false,
    saved: false,
    error: null,
  });
  async function saveAsCoverage() {
    if (!asked) return;
    setState({ busy: true, saved: false, error: null });
    try {
      const body = {
        payerId: result.payerId,
        memberId: asked.memberId,
        ...(result.groupNumber ? { groupNumber: result.groupNumber } : {}),
      };
      await apiFetch(`/api/patients/${encodeURIComponent(asked.patientId)}/coverage`, { method: 'PUT', json: body });
      setState({ busy: false, saved: true, error: null });
    } catch (failure) {
      setState({
        busy: false,
        saved: false,
        error: describeApiError(failure, {
          withReference: true,
          otherwise: 'The coverage could not be saved. Try again.',
        }),
      });
    }
  }
  if (result.coverageOnFile === 'match' || state.saved) {
    return (
      <p data-testid="coverage-on-file" data-coverage="match">
        {state.saved ? 'Saved as the coverage on file.' : COVERAGE_ON_FILE_TEXT.match}
      </p>
    );
  }
  return (
    <div data-testid="coverage-on-file" data-coverage={result.coverageOnFile}>
      <p>{COVERAGE_ON_FILE_TEXT[result.coverageOnFile]}</p>
      {asked ? (
        <button type="button" onClick={saveAsCoverage} disabled={state.busy}>
          {state.busy ? 'Saving…' : `Make member ${asked.memberId} with payer ${result.payerId} the coverage on file`}
        </button>
      ) : null}
      {state.error ? (
        <p role="alert" className="error">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}
