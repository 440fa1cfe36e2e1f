'use client';
// The patient search: name, date of birth and member id (any of them), at most 50 answers by name; each row
// opens the patient's record or their eligibility check. Rows stack into labelled cards at phone width.
import Link from 'next/link';
import { useEffect, useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { DataTable } from '@/components/data-table';
import { ErrorNote } from '@/components/error-note';
import { describeIssue, issueField } from '@/components/describe-api-error';
import { Form } from '@/components/form';
import { TextField } from '@/components/form-field';
import { useClinicTime } from '@/components/clinic-time';

type Patient = {
  id: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  coverage: { payerId: string; payerName: string | null; memberId: string } | null;
};

type Search = { name: string; birthDate: string; memberId: string };

export function PatientList() {
  const clock = useClinicTime();
  const [search, setSearch] = useState<Search>({ name: '', birthDate: '', memberId: '' });
  const [patients, setPatients] = useState<Patient[] | null>(null);
  const [truncated, setTruncated] = useState(false);
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);

  const load = (criteria: Search) => {
    const params = new URLSearchParams({ limit: '50' });
    for (const [key, value] of Object.entries(criteria)) if (value.trim()) params.set(key, value.trim());
    return apiFetch<{ patients: Patient[]; truncated: boolean }>(`/api/patients?${params}`).then(
      (body) => {
        setError(null);
        setIssues({});
        setPatients(body.patients);
        setTruncated(body.truncated);
      },
      (failure: unknown) => {
        const fieldIssues = failure instanceof ApiError ? (failure.body.issues ?? []) : [];
        setIssues(Object.fromEntries(fieldIssues.map((i) => [issueField(i.path), describeIssue(i.path, i.message)])));
        setError(failure);
        setPatients([]);
      },
    );
  };

  useEffect(() => {
    void load({ name: '', birthDate: '', memberId: '' });
    // The first page of the list, once.
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    void load(search);
  }

  const field = (name: keyof Search, label: string, type = 'text') => (
    <TextField
      id={`patients-${name}`}
      label={label}
      type={type}
      value={search[name]}
      onChange={(value) => setSearch({ ...search, [name]: value })}
      issue={issues[name]}
    />
  );

  return (
    <>
      <Form className="card fd-search" role="search" aria-label="Find patients" onSubmit={submit} noValidate>
        {field('name', 'Name')}
        {field('birthDate', 'Date of birth', 'date')}
        {field('memberId', 'Member id')}
        <div className="fd-actions">
          <button type="submit">Search</button>
        </div>
      </Form>
      {error ? <ErrorNote error={error} otherwise="The patients could not be loaded. Try again." /> : null}
      {patients?.length ? (
        <p className="muted" aria-live="polite">
          {patients.length} patient{patients.length === 1 ? '' : 's'}
          {truncated ? ' shown; more match, so narrow the search' : ''}
        </p>
      ) : null}
      {error ? null : (
        <DataTable
          rows={patients}
          stack="wide"
          label="Patients"
          loading="Loading patients…"
          empty="No patient of the clinic matches."
          rowKey={(p) => p.id}
          rowProps={(p) => ({ 'data-testid': `patient-row-${p.id}` })}
          columns={[
            {
              header: 'Name',
              cell: (p) => (
                <Link href={`/patients/${encodeURIComponent(p.id)}`}>
                  {p.lastName}, {p.firstName}
                </Link>
              ),
            },
            { header: 'Date of birth', cell: (p) => clock.date(p.birthDate) },
            {
              header: 'Coverage on file',
              cell: (p) =>
                p.coverage ? (
                  <>
                    {p.coverage.payerName ?? p.coverage.payerId}{' '}
                    <span className="muted mono">{p.coverage.memberId}</span>
                  </>
                ) : (
                  <span className="muted">None (self-pay)</span>
                ),
            },
            {
              header: 'Eligibility',
              cell: (p) => (
                <Link href={`/eligibility/verify?patientId=${encodeURIComponent(p.id)}`}>
                  Verify
                  <span className="fd-visually-hidden">
                    {' '}
                    {p.firstName} {p.lastName}
                  </span>
                </Link>
              ),
            },
          ]}
        />
      )}
    </>
  );
}
