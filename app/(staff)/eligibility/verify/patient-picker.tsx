'use client';
// The verify screen's way to a patient: one of today's appointments (the clinic's today), or a search of the clinic's
// patients by name, date of birth or member id. It only says which was picked; the screen fills its form from it.
import { useState, type FormEvent } from 'react';
import { Form } from '@/components/form';
import type { AppointmentListItem } from '@/lib/appointments/list-appointments';
import { apiFetch } from '@/components/api-fetch';
import { ErrorNote } from '@/components/error-note';
import { useClinicTime } from '@/components/clinic-time';

export type PatientSummary = {
  id: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  coverage: { payerId: string; payerName: string | null; memberId: string; groupNumber: string | null } | null;
};

export function PatientPicker({
  appointments,
  onAppointment,
  onPatient,
}: {
  appointments: AppointmentListItem[];
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
      <Form onSubmit={search} role="search" aria-label="Find a patient">
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
      </Form>
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
