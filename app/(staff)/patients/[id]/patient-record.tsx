'use client';
// One patient's record for the front desk: who they are, the primary and secondary coverage on file (and, for a
// user with claims:write, a form to change each; the secondary is what a secondary claim bills), the eligibility checks already stored, newest first, and appointments.
// Dates of birth and dates of service are calendar dates; times are the clinic's.
import Link from 'next/link';
import { useCallback, useEffect, useState } from 'react';
import type { PatientDetail } from '@/lib/patients/get-patient';
import { apiFetch } from '@/components/api-fetch';
import { DataTable } from '@/components/data-table';
import { ErrorNote } from '@/components/error-note';
import { useClinicTime } from '@/components/clinic-time';
import { StatusBadge } from '@/components/eligibility/status-badge';
import { networkLabel } from '@/components/eligibility/network-label';
import { CoverageForm } from './coverage-form';
import { AppointmentList } from './appointment-list';

const RELATIONSHIP: Record<string, string> = {
  '18': 'Self (the patient is the subscriber)',
  '01': 'Spouse',
  '19': 'Child',
  G8: 'Other',
};

const COVERAGE_CHECKED: Record<string, string> = {
  match: 'Coverage on file',
  mismatch: 'Not the coverage on file',
  none: 'No coverage on file then',
};

export function PatientRecord({ patientId, canEditCoverage }: { patientId: string; canEditCoverage: boolean }) {
  const clock = useClinicTime();
  // When it was read, to split appointments into upcoming and past.
  const [patient, setPatient] = useState<(PatientDetail & { readAt: number }) | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [editing, setEditing] = useState<'primary' | 'secondary' | null>(null);

  const load = useCallback(
    () =>
      apiFetch<PatientDetail>(`/api/patients/${encodeURIComponent(patientId)}`).then(
        (detail) => setPatient({ ...detail, readAt: Date.now() }),
        (failure: unknown) => setError(failure),
      ),
    [patientId],
  );

  useEffect(() => {
    void load();
  }, [load]);

  if (error) {
    return (
      <>
        <h1>Patient</h1>
        <ErrorNote error={error} otherwise="The patient could not be loaded. Reload the page." />
        <p>
          <Link href="/patients">Back to the patients</Link>
        </p>
      </>
    );
  }
  if (!patient) {
    return (
      <>
        <h1>Patient</h1>
        <p className="muted">Loading the patient…</p>
      </>
    );
  }
  const address = patient.address;
  const upcoming = patient.appointments.filter((a) => Date.parse(a.start) >= patient.readAt).reverse();
  const past = patient.appointments.filter((a) => Date.parse(a.start) < patient.readAt);
  return (
    <>
      <p>
        <Link href="/patients">Back to the patients</Link>
      </p>
      <h1>
        {patient.firstName} {patient.lastName}
      </h1>
      <div className="fd-actions">
        <Link className="fd-button-link" href={`/eligibility/verify?patientId=${encodeURIComponent(patient.id)}`}>
          Verify eligibility
        </Link>
      </div>

      <section className="card" aria-labelledby="patient-demographics">
        <h2 id="patient-demographics">Demographics</h2>
        <dl className="fd-facts">
          <dt>Date of birth</dt>
          <dd>{clock.date(patient.birthDate)}</dd>
          <dt>Sex</dt>
          <dd>{patient.gender ?? '—'}</dd>
          <dt>Phone</dt>
          <dd>{patient.phone ?? '—'}</dd>
          <dt>Address</dt>
          <dd>
            {address
              ? [address.line.join(', '), address.city, [address.state, address.postalCode].filter(Boolean).join(' ')]
                  .filter(Boolean)
                  .join(', ')
              : '—'}
          </dd>
          <dt>Patient id</dt>
          <dd className="mono">{patient.id}</dd>
        </dl>
      </section>

      <section className="card" aria-labelledby="patient-coverage" data-testid="coverage-on-file">
        <h2 id="patient-coverage">Coverage on file</h2>
        {patient.coverage ? (
          <dl className="fd-facts">
            <dt>Payer</dt>
            <dd>
              {patient.coverage.payerName ?? '—'} <span className="muted mono">({patient.coverage.payerId})</span>
            </dd>
            <dt>Member id</dt>
            <dd className="mono">{patient.coverage.memberId}</dd>
            <dt>Group number</dt>
            <dd className="mono">{patient.coverage.groupNumber ?? '—'}</dd>
            <dt>Relationship to subscriber</dt>
            <dd>
              {RELATIONSHIP[patient.coverage.relationship] ?? patient.coverage.relationship}
              {patient.subscriber ? ` (subscriber ${patient.subscriber.firstName} ${patient.subscriber.lastName})` : ''}
            </dd>
          </dl>
        ) : (
          <p>No coverage on file: the patient is self-pay until a card is added.</p>
        )}
        {canEditCoverage ? (
          editing === 'primary' ? (
            <CoverageForm
              patient={patient}
              rank="primary"
              onCancel={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                void load();
              }}
            />
          ) : (
            <button type="button" className="secondary" onClick={() => setEditing('primary')}>
              {patient.coverage ? 'Change coverage on file' : 'Add coverage on file'}
            </button>
          )
        ) : (
          <p className="muted">Billing staff or an admin can change the coverage on file.</p>
        )}
      </section>

      <section className="card" aria-labelledby="patient-secondary-coverage" data-testid="secondary-coverage-on-file">
        <h2 id="patient-secondary-coverage">Secondary coverage</h2>
        {patient.secondaryCoverage ? (
          <dl className="fd-facts">
            <dt>Payer</dt>
            <dd>
              {patient.secondaryCoverage.payerName ?? '—'}{' '}
              <span className="muted mono">({patient.secondaryCoverage.payerId})</span>
            </dd>
            <dt>Member id</dt>
            <dd className="mono">{patient.secondaryCoverage.memberId}</dd>
            <dt>Group number</dt>
            <dd className="mono">{patient.secondaryCoverage.groupNumber ?? '—'}</dd>
          </dl>
        ) : (
          <p>No secondary coverage on file: what the primary leaves is the patient&apos;s.</p>
        )}
        {canEditCoverage ? (
          editing === 'secondary' ? (
            <CoverageForm
              patient={patient}
              rank="secondary"
              onCancel={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                void load();
              }}
            />
          ) : (
            <button type="button" className="secondary" onClick={() => setEditing('secondary')}>
              {patient.secondaryCoverage ? 'Change secondary coverage' : 'Add secondary coverage'}
            </button>
          )
        ) : null}
      </section>

      <section className="card" aria-labelledby="patient-checks">
        <h2 id="patient-checks">Eligibility history</h2>
        <DataTable
          rows={patient.eligibilityChecks}
          label="Eligibility history"
          empty="No eligibility checks yet."
          stack="wide"
          rowKey={(check) => check.id}
          columns={[
            { header: 'Checked', cell: (check) => clock.dateTime(check.checkedAt) },
            { header: 'Date of service', cell: (check) => clock.date(check.dateOfService) },
            { header: 'Status', cell: (check) => <StatusBadge status={check.status} /> },
            {
              header: 'Payer and member id',
              cell: (check) => (
                <>
                  {check.payerId} <span className="mono">{check.memberId ?? '—'}</span>
                  {check.coverageOnFile ? (
                    <div className="muted">{COVERAGE_CHECKED[check.coverageOnFile] ?? check.coverageOnFile}</div>
                  ) : null}
                </>
              ),
            },
            { header: 'Network', cell: (check) => (check.network ? networkLabel(check.network) : '—') },
            {
              header: 'Notes',
              cell: (check) => (
                <>
                  {check.rejectionReason ?? (check.priorAuthRequired ? 'Prior authorization required' : '')}
                  {check.mode === 'sandbox' ? <div className="muted">Sandbox answer</div> : null}
                </>
              ),
            },
          ]}
        />
      </section>

      <section className="card" aria-labelledby="patient-appointments">
        <h2 id="patient-appointments">Appointments</h2>
        {patient.appointments.length ? (
          <>
            <AppointmentList title="Upcoming" items={upcoming} canBill={canEditCoverage} />
            <AppointmentList title="Past" items={past} canBill={canEditCoverage} />
          </>
        ) : (
          <p className="muted">No appointments.</p>
        )}
      </section>
    </>
  );
}
