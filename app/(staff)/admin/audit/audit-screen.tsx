'use client';
// The audit log screen: filters (user, action, the clinic's day) read into the address, so a filtered view can be
// shared; entries newest first, at most 100, times in the clinic's zone, PHI reads marked as such. Details are
// the ids and reasons the log keeps (never PHI or secrets); the reference is the request's correlation id.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { Form } from '@/components/form';
import { Field } from '@/components/form-field';
import { CsvLink } from '@/components/csv-link';
import { DataTable } from '@/components/data-table';
import { ErrorNote } from '@/components/error-note';

type Entry = {
  id: string;
  kind: 'audit' | 'phi-read';
  at: string;
  action: string;
  outcome: string;
  userId: string | null;
  userEmail: string | null;
  correlationId: string;
  detail: unknown;
};
type AuditList = { entries: Entry[]; actions: string[]; timeZone: string };
export type Filters = { userId: string; action: string; day: string };

/** Plain words for the actions the platform records; an unknown one shows its own name. */
const ACTION_LABELS: Record<string, string> = {
  'sign-in': 'Sign-in',
  'step-up': 'Step-up confirmation',
  'mfa.enable': 'Two-step verification turned on',
  'mfa.disable': 'Two-step verification turned off',
  'passkey.register': 'Passkey added',
  'passkey.remove': 'Passkey removed',
  'password.change': 'Password changed',
  'users.invite': 'User invited',
  'users.invitation.accept': 'Invitation accepted',
  'users.unlock': 'User unlocked',
  'users.mfa.reset': "User's two-step verification reset",
  'users.deactivate': 'User deactivated',
  'phi.read': 'Patient data read (PHI)',
  'patients.coverage.update': 'Coverage on file changed',
  'claims.submit': 'Claim submitted',
  'settlement.instruction.create': 'Settlement instruction created',
  'settlement.instruction.sign': 'Settlement instruction signed',
  'settlement.instruction.execute': 'Settlement executed',
  'settlement.gate.clear': 'Settlement gate cleared',
  'emr.connection.create': 'EMR connection created',
  'emr.connection.update': 'EMR connection changed',
  'emr.connection.delete': 'EMR connection deleted',
  'emr.connection.connect': 'EMR connection authorized',
  'jobs.retry': 'Background job retried',
};

const labelOf = (action: string) => ACTION_LABELS[action] ?? action;

function queryOf(filters: Filters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function fetchAudit(filters: Filters): Promise<AuditList | { error: unknown }> {
  try {
    return await apiFetch<AuditList>(`/api/audit${queryOf(filters)}`);
  } catch (err) {
    return { error: err };
  }
}

export function AuditScreen({ initial }: { initial: Filters }) {
  const [filters, setFilters] = useState<Filters>(initial);
  const [list, setList] = useState<AuditList | null>(null);
  const [users, setUsers] = useState<{ id: string; email: string }[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [dayError, setDayError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);

  const apply = useCallback((loaded: AuditList | { error: unknown }) => {
    if ('error' in loaded) setError(loaded.error);
    else {
      setList(loaded);
      setError(null);
    }
    setLoading(false);
  }, []);

  useEffect(() => {
    let current = true;
    void fetchAudit(initial).then((loaded) => {
      if (current) apply(loaded);
    });
    void apiFetch<{ users: { id: string; email: string }[] }>('/api/users').then(
      (answer) => current && setUsers(answer.users),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [apply, initial]);

  const load = async (next: Filters) => {
    setLoading(true);
    apply(await fetchAudit(next));
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = {
      userId: String(form.get('userId') ?? ''),
      action: String(form.get('action') ?? ''),
      day: String(form.get('day') ?? ''),
    };
    if (next.day && !/^\d{4}-\d{2}-\d{2}$/.test(next.day)) {
      setDayError('Enter the day as a date, e.g. 2026-11-23');
      return;
    }
    setDayError(null);
    setFilters(next);
    window.history.replaceState(null, '', `/admin/audit${queryOf(next)}`);
    void load(next);
  }

  const timeZone = list?.timeZone;
  const format = (iso: string) =>
    new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium', timeZone }).format(new Date(iso));

  return (
    <>
      <CsvLink apiPath={`/api/audit${queryOf(filters)}`} what="the audit log with these filters" />
      <Form className="card audit-filters" onSubmit={submit} aria-label="Filter the audit log" noValidate>
        <div>
          <label htmlFor="audit-user">User</label>
          <select
            id="audit-user"
            name="userId"
            defaultValue={filters.userId}
            key={`u-${filters.userId}-${users.length}`}
          >
            <option value="">Everyone</option>
            {users.map((u) => (
              <option key={u.id} value={u.id}>
                {u.email}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-action">Action</label>
          <select
            id="audit-action"
            name="action"
            defaultValue={filters.action}
            key={`a-${filters.action}-${list?.actions.length ?? 0}`}
          >
            <option value="">Every action</option>
            {(list?.actions ?? []).map((a) => (
              <option key={a} value={a}>
                {labelOf(a)}
              </option>
            ))}
          </select>
        </div>
        <Field id="audit-day" label={`Day${timeZone ? ` (${timeZone})` : ''}`} issue={dayError}>
          {(control) => (
            <input {...control} name="day" type="date" defaultValue={filters.day} key={`d-${filters.day}`} />
          )}
        </Field>
        <div className="audit-apply">
          <button type="submit">Show</button>
        </div>
      </Form>
      {error ? <ErrorNote error={error} /> : null}
      <section className="card" aria-labelledby="audit-title" aria-busy={loading}>
        <h2 id="audit-title">Entries</h2>
        <p className="muted" role="status">
          {loading
            ? 'Loading…'
            : list
              ? `${list.entries.length === 100 ? 'The newest 100' : list.entries.length} entr${list.entries.length === 1 ? 'y' : 'ies'}, newest first.`
              : ''}
        </p>
        <DataTable
          rows={list?.entries ?? null}
          stack="admin"
          caption="Audit log entries, newest first"
          loading={null}
          empty={null}
          rowKey={(entry) => `${entry.kind}-${entry.id}`}
          rowProps={(entry) => ({ 'data-testid': 'audit-entry', 'data-action': entry.action })}
          columns={[
            { header: 'When', cell: (entry) => format(entry.at) },
            { header: 'Who', cell: (entry) => entry.userEmail ?? entry.userId ?? 'Unknown' },
            {
              header: 'What',
              cell: (entry) => (
                <>
                  {entry.kind === 'phi-read' && <span className="audit-phi">PHI read</span>} {labelOf(entry.action)}
                </>
              ),
            },
            { header: 'Outcome', cell: (entry) => entry.outcome },
            {
              header: 'Details',
              cell: (entry) => (
                <>
                  <Detail detail={entry.detail} />
                  <span className="muted audit-ref">Reference {entry.correlationId}</span>
                </>
              ),
            },
          ]}
        />
      </section>
    </>
  );
}

function Detail({ detail }: { detail: unknown }) {
  if (!detail || typeof detail !== 'object') return null;
  const parts = Object.entries(detail as Record<string, unknown>).map(
    ([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`,
  );
  return <span className="audit-detail">{parts.join(' · ')}</span>;
}
