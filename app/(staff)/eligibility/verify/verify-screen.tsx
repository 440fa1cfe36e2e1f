'use client';
// The verify form and its result, side by side on wide screens. Picking one of today's appointments (the
// clinic's today) or a patient from the search fills the form from the patient record: name, date of birth and
// coverage on file (GET /api/patients/{id}), the provider from the appointment or the clinic's billing
// provider. The payer is picked from the payer directory (or typed, for a payer it does not list). The result
// takes focus and is announced; an unknown or inactive answer shows the reason and the next step instead of a
// benefit grid, and flags on an active one (out of network, prior authorization) get next steps in words.
// When the member id or payer checked is not the patient's coverage on file, the result offers to make it so
// (PUT /api/patients/{id}/coverage; claims:write), which claims need.
import { useEffect, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { VerifyEligibilityBody } from '@/lib/eligibility/verify-eligibility-body';
import type { EligibilityResult } from '@/lib/eligibility/eligibility-result';
import { PAYER_DIRECTORY } from '@/lib/eligibility/payer-directory';
import { clinicDateOf } from '@/lib/time/clinic-day';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { ErrorNote } from '@/components/error-note';
import { describeIssue, issueField } from '@/components/describe-api-error';
import { useClinicTime } from '@/components/clinic-time';
import { formatDollars } from '@/components/eligibility/format-dollars';
import { networkLabel } from '@/components/eligibility/network-label';
import { RejectionNote } from '@/components/eligibility/rejection-note';
import { StatusBadge } from '@/components/eligibility/status-badge';
import { attentionReasons, outOfNetworkStep, priorAuthStep } from '@/components/eligibility/needs-attention';
import { serviceTypeList, serviceTypeName } from '@/components/eligibility/service-type-name';

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

type PatientSummary = {
  id: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  coverage: { payerId: string; payerName: string | null; memberId: string; groupNumber: string | null } | null;
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

const OTHER_PAYER = '__other';

// X12 service type codes with X12's own meanings (DECISIONS).
const SERVICE_TYPES = ['30', '1', '98', 'MH', '5', 'AL'] as const;

const FIELDS: { name: keyof Form; label: string; type?: string; hint?: string }[] = [
  { name: 'patientId', label: 'Patient id', hint: 'Filled in when you pick an appointment or a patient' },
  { name: 'firstName', label: 'First name (as on the card)' },
  { name: 'lastName', label: 'Last name (as on the card)' },
  { name: 'dob', label: 'Date of birth', type: 'date' },
  { name: 'memberId', label: 'Member id' },
];

export function VerifyScreen({ initialPatientId }: { initialPatientId?: string }) {
  const clock = useClinicTime();
  const [appointments, setAppointments] = useState<Appointment[]>([]);
  const [clinicNpi, setClinicNpi] = useState('');
  const [form, setForm] = useState<Form>(EMPTY);
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<EligibilityResult | null>(null);
  // What the shown result asked about: the coverage a "use as coverage on file" would store.
  const [asked, setAsked] = useState<{ patientId: string; memberId: string; dos: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [filled, setFilled] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [payerMode, setPayerMode] = useState<'directory' | 'other'>('directory');
  const resultRef = useRef<HTMLElement>(null);
  // The clinic's NPI as soon as it is known, for a fill that started before it arrived (the effect above fills
  // it into the form when it arrives later).
  const clinicNpiRef = useRef('');

  useEffect(() => {
    // The lists only fill the form in: without them the form is typed by hand, so a failure shows nothing.
    apiFetch<{ appointments: Appointment[] }>('/api/appointments').then(
      (body) => setAppointments(body.appointments),
      () => undefined,
    );
    apiFetch<{ billingProvider: { npi: string | null } }>('/api/clinic').then(
      (clinic) => {
        const npi = clinic.billingProvider.npi ?? '';
        clinicNpiRef.current = npi;
        setClinicNpi(npi);
        setForm((f) => (f.npi ? f : { ...f, npi }));
      },
      () => undefined,
    );
  }, []);

  useEffect(() => {
    if (initialPatientId) void fillFromPatient(initialPatientId, {});
    // Only the page's own patient, once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initialPatientId]);

  useEffect(() => {
    if (!result) return;
    // The result takes focus and the live region says it. The page scrolls only when the result's top is out of
    // sight (under the form on a narrow screen), and then to that top, not to wherever focus would put it.
    const section = resultRef.current;
    if (!section) return;
    section.focus({ preventScroll: true });
    const top = section.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight - 80) section.scrollIntoView({ block: 'start' });
  }, [result]);

  /** Fills the form from the patient record; the appointment's own data when the record cannot be read. */
  async function fillFromPatient(patientId: string, from: { appointment?: Appointment }) {
    const a = from.appointment;
    // Built when the answer is in: the clinic's NPI may have arrived in the meantime.
    const base = (): Form => ({
      ...EMPTY,
      patientId,
      npi: a?.providerNpi ?? clinicNpiRef.current,
      dos: a ? clinicDateOf(new Date(a.start), clock.timeZone) : '',
    });
    setIssues({});
    setResult(null);
    setError(null);
    try {
      const patient = await apiFetch<PatientSummary>(`/api/patients/${encodeURIComponent(patientId)}`);
      setForm({
        ...base(),
        firstName: patient.firstName,
        lastName: patient.lastName,
        dob: patient.birthDate,
        memberId: patient.coverage?.memberId ?? '',
        payerId: patient.coverage?.payerId ?? '',
        payerName: patient.coverage?.payerName ?? payerNameOf(patient.coverage?.payerId) ?? '',
      });
      setFilled(
        patient.coverage
          ? `Filled in from ${patient.firstName} ${patient.lastName}'s record and coverage on file.`
          : `Filled in from ${patient.firstName} ${patient.lastName}'s record. No coverage on file (self-pay): enter the card's member id and payer.`,
      );
    } catch {
      // Without patients:read (or the record unreachable): what the schedule knows; the date of birth is typed.
      const [first = '', ...rest] = (a?.patientName ?? '').split(' ');
      setForm({
        ...base(),
        firstName: first,
        lastName: rest.join(' '),
        memberId: a?.memberId ?? '',
        payerName: a?.payerName ?? '',
        payerId: a?.payerId ?? '',
      });
      setFilled(a ? 'Filled in from the appointment. Enter the date of birth as on the card.' : null);
    }
  }

  function pickAppointment(id: string) {
    const a = appointments.find((x) => x.id === id);
    if (a) void fillFromPatient(a.patientId, { appointment: a });
  }

  function pickPayer(value: string) {
    if (value === OTHER_PAYER) {
      setForm({ ...form, payerName: '', payerId: '' });
      setPayerMode('other');
      return;
    }
    const payer = PAYER_DIRECTORY.find((p) => p.payerId === value);
    setPayerMode('directory');
    if (payer) setForm({ ...form, payerName: payer.name, payerId: payer.payerId });
  }
  const listedPayer = PAYER_DIRECTORY.find((p) => p.payerId === form.payerId);
  const showOtherPayer = payerMode === 'other' || (!!form.payerId && !listedPayer);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setResult(null);
    setAnnouncement('');
    const body = {
      ...Object.fromEntries(Object.entries(form).filter(([, v]) => v.trim() !== '')),
      explain: true,
    };
    const parsed = VerifyEligibilityBody.safeParse(body);
    if (!parsed.success) {
      setIssues(
        Object.fromEntries(
          parsed.error.issues.map((i) => [String(i.path[0]), describeIssue(String(i.path[0]), i.message)]),
        ),
      );
      setAnnouncement('Check the fields marked in the form.');
      return;
    }
    setIssues({});
    setBusy(true);
    try {
      const answer = await apiFetch<EligibilityResult>('/api/eligibility/verify', { method: 'POST', json: body });
      const dos = parsed.data.dos ?? clock.today();
      setAsked({ patientId: parsed.data.patientId, memberId: parsed.data.memberId, dos });
      setResult(answer);
      setAnnouncement(announce(answer));
    } catch (failure) {
      if (failure instanceof ApiError) {
        setIssues(
          Object.fromEntries(
            (failure.body.issues ?? []).map((i) => [issueField(i.path), describeIssue(i.path, i.message)]),
          ),
        );
      }
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const input = (name: keyof Form, label: string, options: { type?: string; hint?: string } = {}) => (
    <div key={name}>
      <label htmlFor={`verify-${name}`}>{label}</label>
      <input
        id={`verify-${name}`}
        type={options.type ?? 'text'}
        value={form[name]}
        autoComplete="off"
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
        aria-invalid={issues[name] ? true : undefined}
        aria-describedby={
          [options.hint ? `verify-${name}-hint` : '', issues[name] ? `verify-${name}-error` : '']
            .filter(Boolean)
            .join(' ') || undefined
        }
      />
      {options.hint ? (
        <div id={`verify-${name}-hint`} className="muted">
          {options.hint}
        </div>
      ) : null}
      {issues[name] ? (
        <div id={`verify-${name}-error`} className="error" data-testid={`verify-${name}-error`}>
          {issues[name]}
        </div>
      ) : null}
    </div>
  );

  return (
    <div className="fd-verify">
      <div>
        <PatientPicker
          appointments={appointments}
          onAppointment={pickAppointment}
          onPatient={(id) => void fillFromPatient(id, {})}
        />
        <form className="card" onSubmit={submit} noValidate aria-label="Eligibility check">
          {filled ? (
            <p className="muted" data-testid="verify-filled">
              {filled}
            </p>
          ) : null}
          {FIELDS.map((f) => input(f.name, f.label, { type: f.type, hint: f.hint }))}
          <label htmlFor="verify-payer">Payer</label>
          <select
            id="verify-payer"
            value={showOtherPayer ? OTHER_PAYER : (listedPayer?.payerId ?? '')}
            onChange={(e) => pickPayer(e.target.value)}
            aria-invalid={issues.payerName || issues.payerId ? true : undefined}
            aria-describedby={issues.payerName ? 'verify-payerName-error' : undefined}
          >
            <option value="" disabled>
              Choose the payer…
            </option>
            {PAYER_DIRECTORY.map((p) => (
              <option key={p.payerId} value={p.payerId}>
                {p.name} ({p.payerId})
              </option>
            ))}
            <option value={OTHER_PAYER}>Another payer (enter its name and payer id)</option>
          </select>
          {!showOtherPayer && issues.payerName ? (
            <div id="verify-payerName-error" className="error">
              {issues.payerName}
            </div>
          ) : null}
          {showOtherPayer ? (
            <>
              {input('payerName', 'Payer name')}
              {input('payerId', 'Payer id', { hint: 'The electronic payer id on the card or from the clearinghouse' })}
            </>
          ) : null}
          {input('npi', 'Rendering provider NPI', {
            hint: clinicNpi ? `The clinic's billing provider is ${clinicNpi}` : undefined,
          })}
          {input('dos', 'Date of service', {
            type: 'date',
            hint: `Empty: today at the clinic (${clock.date(clock.today())})`,
          })}
          <label htmlFor="verify-serviceType">Service type</label>
          <select
            id="verify-serviceType"
            value={form.serviceType}
            onChange={(e) => setForm({ ...form, serviceType: e.target.value })}
          >
            {SERVICE_TYPES.map((code) => (
              <option key={code} value={code}>
                {serviceTypeName(code)}
              </option>
            ))}
          </select>
          <div className="fd-actions">
            <button type="submit" disabled={busy}>
              {busy ? 'Checking…' : 'Check eligibility'}
            </button>
          </div>
          {error ? <ErrorNote error={error} otherwise="The check could not be sent. Try again." /> : null}
        </form>
      </div>
      <div>
        {/* Always present, so screen readers hear each new answer. */}
        <p role="status" aria-live="polite" className="fd-visually-hidden" data-testid="verify-announcement">
          {announcement}
        </p>
        {result && asked ? <ResultCard ref={resultRef} result={result} asked={asked} /> : null}
      </div>
    </div>
  );
}

function PatientPicker({
  appointments,
  onAppointment,
  onPatient,
}: {
  appointments: Appointment[];
  onAppointment: (id: string) => void;
  onPatient: (id: string) => void;
}) {
  const clock = useClinicTime();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<PatientSummary[] | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  async function search(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const q = query.trim();
    const params = new URLSearchParams({ limit: '10' });
    // A date searches birth dates, something with digits member ids, anything else names.
    if (/^\d{4}-\d{2}-\d{2}$/.test(q)) params.set('birthDate', q);
    else if (/\d/.test(q)) params.set('memberId', q);
    else if (q) params.set('name', q);
    try {
      setFound((await apiFetch<{ patients: PatientSummary[] }>(`/api/patients?${params}`)).patients);
    } catch (error) {
      setFound(null);
      setFailure(error);
    }
  }

  return (
    <div className="card">
      {appointments.length ? (
        <>
          <label htmlFor="verify-appointment">Fill in from today&apos;s appointment</label>
          <select id="verify-appointment" defaultValue="" onChange={(e) => onAppointment(e.target.value)}>
            <option value="" disabled>
              Choose an appointment…
            </option>
            {appointments.map((a) => (
              <option key={a.id} value={a.id}>
                {clock.time(a.start)} · {a.patientName}
                {a.memberId ? '' : ' (self-pay)'}
              </option>
            ))}
          </select>
        </>
      ) : (
        <p className="muted">No appointments today at the clinic.</p>
      )}
      <form onSubmit={search} role="search" aria-label="Find a patient">
        <label htmlFor="verify-patient-search">Or find a patient</label>
        <div className="fd-inline">
          <input
            id="verify-patient-search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Name, date of birth (YYYY-MM-DD) or member id"
            autoComplete="off"
          />
          <button type="submit" className="secondary">
            Find
          </button>
        </div>
      </form>
      {failure ? <ErrorNote error={failure} otherwise="The search could not be sent. Try again." /> : null}
      {found ? (
        found.length ? (
          <ul className="fd-picklist" aria-label="Patients found">
            {found.map((p) => (
              <li key={p.id}>
                <button type="button" className="secondary" onClick={() => onPatient(p.id)}>
                  {p.firstName} {p.lastName} · born {clock.date(p.birthDate)}
                  {p.coverage ? ` · ${p.coverage.payerName ?? p.coverage.payerId}` : ' · self-pay'}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No patient of the clinic matches.</p>
        )
      ) : null}
    </div>
  );
}

function ResultCard({
  ref,
  result,
  asked,
}: {
  ref: Ref<HTMLElement>;
  result: EligibilityResult;
  asked: { patientId: string; memberId: string; dos: string };
}) {
  const clock = useClinicTime();
  const reasons = attentionReasons(result);
  return (
    <section
      ref={ref}
      tabIndex={-1}
      className="card fd-result"
      aria-labelledby="verify-result-heading"
      data-testid="verify-result"
      data-status={result.status}
    >
      <h2 id="verify-result-heading">
        Result: <StatusBadge status={result.status} />
      </h2>
      <p className="muted">
        {result.mode === 'sandbox' ? 'Sandbox answer (demo payer). ' : ''}
        {payerNameOf(result.payerId) ?? 'Payer'} ({result.payerId}) · member {result.memberId} · date of service{' '}
        {clock.date(asked.dos)} · checked {clock.dateTime(result.verifiedAt)}
        {result.cached ? ' (a check from the last 24 hours; the payer was not asked again)' : ''}
      </p>
      {result.status === 'unknown' ? (
        <div data-testid="verify-next-step">
          {result.rejection ? (
            <RejectionNote rejection={result.rejection} />
          ) : (
            <p>
              The payer sent no coverage status. <strong>Next step:</strong> confirm coverage with the payer by phone.
            </p>
          )}
        </div>
      ) : null}
      {result.status === 'inactive' ? (
        <div data-testid="verify-next-step">
          <p>
            Coverage is not active on {clock.date(asked.dos)}
            {result.coverageEnd ? `: it ended ${clock.date(result.coverageEnd)}` : ''}.
          </p>
          <p>
            <strong>Next step:</strong> ask the patient for their current insurance card and check it, or collect as
            self-pay.
          </p>
        </div>
      ) : null}
      {result.status === 'active' && (reasons.includes('out-of-network') || reasons.includes('prior-auth')) ? (
        <div data-testid="verify-next-step">
          <h3>Next steps</h3>
          <ul>
            {reasons.includes('out-of-network') ? <li>{outOfNetworkStep()}</li> : null}
            {reasons.includes('prior-auth') ? <li>{priorAuthStep(result)}</li> : null}
          </ul>
        </div>
      ) : null}
      <CoverageOnFileNote result={result} asked={asked} />
      {/* Benefits only for an active answer: an unknown or inactive one has none to show, only defaults. */}
      {result.status === 'active' ? <BenefitTable result={result} /> : null}
    </section>
  );
}

function BenefitTable({ result }: { result: EligibilityResult }) {
  const clock = useClinicTime();
  const evidence = result.evidence ?? {};
  const priorAuth = result.priorAuthCodes.length
    ? `${result.priorAuthRequired ? 'Required' : 'Flagged'} for ${serviceTypeList(result.priorAuthCodes)}`
    : result.priorAuthRequired
      ? 'Required'
      : 'Not flagged';
  const coverage = `${result.coverageStart ? clock.date(result.coverageStart) : 'start not stated'} to ${
    result.coverageEnd ? clock.date(result.coverageEnd) : 'no end date'
  }`;
  // Each row names the evidence keys behind it (lib/x12's field paths).
  const rows: { label: string; value: ReactNode; keys: string[] }[] = [
    { label: 'Member', value: `${result.memberName ?? '—'} · ${result.memberId}`, keys: ['memberName', 'memberId'] },
    { label: 'Plan', value: result.planName ?? '—', keys: ['planName'] },
    { label: 'Group', value: result.groupNumber ?? '—', keys: ['groupNumber'] },
    { label: 'Coverage', value: coverage, keys: ['coverageStart', 'coverageEnd'] },
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
    <table className="fd-stack" aria-label="Benefits">
      <thead>
        <tr>
          <th scope="col">Benefit</th>
          <th scope="col">Value</th>
          <th scope="col">From the payer&apos;s answer</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row" data-label="Benefit">
              {row.label}
            </th>
            <td data-label="Value">{row.value}</td>
            <td className="mono fd-evidence" data-label="From the payer">
              {[...new Set(row.keys.flatMap((key) => evidence[key] ?? []))].map((segment) => (
                <div key={segment}>{segment}</div>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
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
  const [state, setState] = useState<{ busy: boolean; saved: boolean; error: unknown }>({
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
      setState({ busy: false, saved: false, error: failure });
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
          {state.busy ? 'Saving…' : `Update coverage on file: member ${asked.memberId}, payer ${result.payerId}`}
        </button>
      ) : null}
      {state.error ? <ErrorNote error={state.error} otherwise="The coverage could not be saved. Try again." /> : null}
    </div>
  );
}

function payerNameOf(payerId: string | undefined | null): string | null {
  return PAYER_DIRECTORY.find((p) => p.payerId === payerId)?.name ?? null;
}

/** One sentence a screen reader says when the answer arrives. */
function announce(result: EligibilityResult): string {
  const status = { active: 'Active', inactive: 'Inactive', unknown: 'Unknown' }[result.status];
  const parts = [`Eligibility result: ${status}.`];
  if (result.status === 'unknown') parts.push(result.rejection ? `${result.rejection.reason}.` : 'No status sent.');
  if (result.status === 'active' && result.network === 'OUT') parts.push('Out of network.');
  if (result.priorAuthRequired) parts.push('Prior authorization required.');
  if (result.coverageOnFile !== 'match') parts.push('Not the coverage on file.');
  return parts.join(' ');
}
