'use client';
// The verify form and its result, side by side on wide screens. Picking one of today's appointments (the
// clinic's today) or a patient from the search fills the form from the patient record: name, date of birth and
// coverage on file (GET /api/patients/{id}), the provider from the appointment or the clinic's billing
// provider. The payer is picked from the payer directory (or typed, for a payer it does not list). The result
// takes focus and is announced; an unknown or inactive answer shows the reason and the next step instead of a
// benefit grid, and flags on an active one (out of network, prior authorization) get next steps in words.
// When the member id or payer checked is not the patient's coverage on file, the result offers to make it so
// (PUT /api/patients/{id}/coverage; claims:write), which claims need.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Form } from '@/components/form';
import { VerifyEligibilityBody } from '@/lib/eligibility/verify-eligibility-body';
import type { EligibilityResult } from '@/lib/eligibility/eligibility-result';
import { findPayerName } from '@/lib/eligibility/payer-directory';
import { clinicDateOf } from '@/lib/time/clinic-day';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { ErrorNote } from '@/components/error-note';
import { TextField } from '@/components/form-field';
import { describeIssue, issueField } from '@/components/describe-api-error';
import { useClinicTime } from '@/components/clinic-time';
import { serviceTypeName } from '@/components/eligibility/service-type-name';
import type { AppointmentListItem as Appointment } from '@/lib/appointments/list-appointments';
import { PatientPicker, type PatientSummary } from './patient-picker';
import { PayerField } from './payer-field';
import { announce, ResultCard } from './verify-result';

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
        payerName: patient.coverage?.payerName ?? findPayerName(patient.coverage?.payerId) ?? '',
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
    <TextField
      key={name}
      id={`verify-${name}`}
      label={label}
      value={form[name]}
      onChange={(value) => setForm({ ...form, [name]: value })}
      issue={issues[name]}
      {...options}
    />
  );

  return (
    <div className="fd-verify">
      <div>
        <PatientPicker
          appointments={appointments}
          onAppointment={pickAppointment}
          onPatient={(id) => void fillFromPatient(id, {})}
        />
        <Form className="card" onSubmit={submit} noValidate aria-label="Eligibility check">
          {filled ? (
            <p className="muted" data-testid="verify-filled">
              {filled}
            </p>
          ) : null}
          {FIELDS.map((f) => input(f.name, f.label, { type: f.type, hint: f.hint }))}
          <PayerField
            payerId={form.payerId}
            payerName={form.payerName}
            issues={issues}
            onChange={(payer) => setForm({ ...form, ...payer })}
          />
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
        </Form>
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
