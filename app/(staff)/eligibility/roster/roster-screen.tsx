'use client';
// The roster screen: pick a day, list its appointments, run the check and watch results arrive (NDJSON), then
// read status, network, copays, deductible remaining, prior authorization and what to do about unknowns.
import { useEffect, useState } from 'react';
import type { RosterResult, RosterSummary } from '@/lib/eligibility/check-roster';
import { apiFetch } from '@/components/api-fetch';
import { ApiError, type ApiErrorBody } from '@/components/api-error';
import { describeApiError } from '@/components/describe-api-error';
import { formatDollars } from '@/components/eligibility/format-dollars';
import { networkLabel } from '@/components/eligibility/network-label';
import { RejectionNote } from '@/components/eligibility/rejection-note';
import { StatusBadge } from '@/components/eligibility/status-badge';
import { readNdjson } from './read-ndjson';

type Appointment = {
  id: string;
  patientId: string;
  patientName: string;
  start: string;
  memberId: string | null;
  payerId: string | null;
  payerName: string | null;
  reason: string | null;
};

type ProgressLine =
  | ({ type: 'result'; index: number } & RosterResult)
  | { type: 'summary'; summary: RosterSummary }
  | ({ type: 'error' } & ApiErrorBody);

const SKIP_WORDS: Record<string, string> = {
  NO_MEMBER_ID: 'Not checked: no insurance on file (self-pay). Ask for an insurance card or collect as self-pay.',
  NO_PAYER_ID: 'Not checked: no payer on file. Add the payer to the patient’s coverage and check again.',
};

// The appointments API and the demo schedule count days in UTC, so "today" is the UTC date.
const todayUtc = () => new Date().toISOString().slice(0, 10);

export function RosterScreen() {
  const [date, setDate] = useState(todayUtc);
  const [appointments, setAppointments] = useState<Appointment[] | null>(null);
  const [results, setResults] = useState<(RosterResult | undefined)[]>([]);
  const [summary, setSummary] = useState<RosterSummary | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    apiFetch<{ appointments: Appointment[] }>(`/api/appointments?date=${encodeURIComponent(date)}`).then(
      (body) => {
        if (current) setAppointments(body.appointments);
      },
      (failure: unknown) => {
        if (!current) return;
        setError(
          describeApiError(failure, {
            withReference: true,
            otherwise: 'The appointments could not be loaded. Reload the page.',
          }),
        );
        // Refused (not lost on the way): the day has no list to wait for.
        if (failure instanceof ApiError) setAppointments([]);
      },
    );
    return () => {
      current = false;
    };
  }, [date]);

  function chooseDay(day: string) {
    if (!day) return;
    setDate(day);
    setAppointments(null);
    setResults([]);
    setSummary(null);
    setError(null);
  }

  async function runCheck() {
    if (!appointments?.length) return;
    setRunning(true);
    setError(null);
    setSummary(null);
    setResults(new Array(appointments.length).fill(undefined));
    try {
      const res = await apiFetch('/api/eligibility/roster', {
        method: 'POST',
        headers: { accept: 'application/x-ndjson' },
        json: { appointments: appointments.map((a) => ({ patientId: a.patientId, start: a.start })) },
        stream: true,
      });
      await readNdjson(res, (raw) => {
        const line = raw as ProgressLine;
        if (line.type === 'result') {
          const { type: _type, index, ...result } = line;
          setResults((previous) => {
            const next = [...previous];
            next[index] = result;
            return next;
          });
        } else if (line.type === 'summary') {
          setSummary(line.summary);
        } else {
          // The server failed after streaming began: its error body comes as the last line, under a 200.
          const { type: _type, ...body } = line;
          throw new ApiError(res.status, body);
        }
      });
    } catch (failure) {
      setError(
        describeApiError(failure, {
          withReference: true,
          otherwise: 'The connection was lost before every result arrived. Check again.',
        }),
      );
    } finally {
      setRunning(false);
    }
  }

  const done = results.filter(Boolean).length;
  const total = appointments?.length ?? 0;

  return (
    <>
      <div className="card row">
        <div>
          <label htmlFor="roster-date">Day</label>
          <input
            id="roster-date"
            type="date"
            value={date}
            onChange={(e) => chooseDay(e.target.value)}
            disabled={running}
          />
        </div>
        <button type="button" onClick={runCheck} disabled={running || !appointments?.length}>
          {running ? 'Checking…' : 'Check eligibility'}
        </button>
        <div aria-live="polite" className="muted" data-testid="progress">
          {running || done > 0 ? (
            <>
              <progress value={done} max={total} aria-label="Eligibility checks finished" /> Checked {done} of {total}
            </>
          ) : null}
        </div>
      </div>

      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}

      {summary ? (
        <div className="card row" data-testid="summary" aria-label="Summary">
          <Counter name="Total" value={summary.total} testId="summary-total" />
          <Counter name="Active" value={summary.active} testId="summary-active" />
          <Counter name="Inactive" value={summary.inactive} testId="summary-inactive" />
          <Counter name="Unknown" value={summary.unknown} testId="summary-unknown" />
          <Counter name="Skipped" value={summary.skipped} testId="summary-skipped" />
        </div>
      ) : null}

      {appointments === null ? <p className="muted">Loading appointments…</p> : null}
      {appointments?.length === 0 && !error ? <p className="muted">No appointments on this day.</p> : null}
      {appointments?.length ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Patient</th>
                <th scope="col">Status</th>
                <th scope="col">Network</th>
                <th scope="col">Copay (primary / specialist)</th>
                <th scope="col">Deductible remaining</th>
                <th scope="col">Prior authorization</th>
                <th scope="col">What to do</th>
              </tr>
            </thead>
            <tbody>
              {appointments.map((appointment, index) => (
                <RosterRow
                  key={appointment.id}
                  appointment={appointment}
                  result={results[index]}
                  pending={running && !results[index]}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

function RosterRow({
  appointment,
  result,
  pending,
}: {
  appointment: Appointment;
  result?: RosterResult;
  pending: boolean;
}) {
  const fields = result?.result;
  const time = new Date(appointment.start).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return (
    <tr
      data-testid={`roster-row-${appointment.patientId}`}
      data-status={result ? (result.skipped ? 'skipped' : fields?.status) : pending ? 'pending' : 'not-checked'}
    >
      <td>{time}</td>
      <td>
        <div>{appointment.patientName}</div>
        <div className="muted mono">
          {appointment.memberId ?? 'Self-pay'}
          {appointment.payerName ? ` · ${appointment.payerName}` : ''}
        </div>
      </td>
      <td>
        {fields ? (
          <StatusBadge status={fields.status} />
        ) : result?.skipped ? (
          <span className="muted" data-status="skipped">
            Skipped
          </span>
        ) : pending ? (
          <span className="muted">Checking…</span>
        ) : (
          '—'
        )}
        {fields?.cached ? (
          <div className="muted">
            from a check at {new Date(fields.verifiedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
          </div>
        ) : null}
      </td>
      <td>{fields ? networkLabel(fields.network) : '—'}</td>
      <td>{fields ? `${formatDollars(fields.copay.primaryCare)} / ${formatDollars(fields.copay.specialist)}` : '—'}</td>
      <td>{fields ? formatDollars(fields.deductible.remaining) : '—'}</td>
      <td>
        {fields ? fields.priorAuthRequired ? <strong>Required</strong> : 'Not flagged' : '—'}
        {fields?.priorAuthCodes.length ? <div className="muted mono">{fields.priorAuthCodes.join(', ')}</div> : null}
      </td>
      <td>
        {fields?.rejection ? <RejectionNote rejection={fields.rejection} /> : null}
        {fields?.status === 'inactive' ? (
          <div>
            Coverage is not active on this date{fields.coverageEnd ? ` (ended ${fields.coverageEnd})` : ''}. Ask for
            current insurance or collect as self-pay.
          </div>
        ) : null}
        {fields?.status === 'unknown' && !fields.rejection ? (
          <div>The payer sent no coverage status. Confirm coverage with the payer by phone.</div>
        ) : null}
        {result?.skipped ? <div>{SKIP_WORDS[result.skipReason ?? ''] ?? 'Not checked.'}</div> : null}
      </td>
    </tr>
  );
}

function Counter({ name, value, testId }: { name: string; value: number; testId: string }) {
  return (
    <div>
      <div className="muted">{name}</div>
      <strong data-testid={testId} style={{ fontSize: '1.5rem' }}>
        {value}
      </strong>
    </div>
  );
}
