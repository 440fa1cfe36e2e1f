'use client';
// The roster screen: pick a day (the clinic's today by default), list its appointments at clinic times, run the
// check and watch results arrive (NDJSON), then read status (flagged when it, the network or prior authorization
// changed since the patient's previous check), network, copays, deductible remaining, prior
// authorization and what to do. "Needs attention" counts and filters the answers staff must act on before the
// visit. Rows stack into labelled cards at phone width (no sideways scroll box).
import { useEffect, useState } from 'react';
import type { AppointmentListItem as Appointment } from '@/lib/appointments/list-appointments';
import type { RosterResult, RosterSummary } from '@/lib/eligibility/check-roster';
import { apiFetch } from '@/components/api-fetch';
import { ApiError, type ApiErrorBody } from '@/components/api-error';
import { ErrorNote } from '@/components/error-note';
import { useClinicTime } from '@/components/clinic-time';
import { attentionReasons } from '@/components/eligibility/needs-attention';
import { useHydrated } from '@/components/use-hydrated';
import { readNdjson } from './read-ndjson';
import { RosterRow } from './roster-row';

type ProgressLine =
  | ({ type: 'result'; index: number } & RosterResult)
  | { type: 'summary'; summary: RosterSummary }
  | ({ type: 'error' } & ApiErrorBody);

type Filter = 'all' | 'attention';

/**
 * `canBill` (claims:write): each row of a day up to the clinic's today offers "Bill this visit", the claim editor
 * filled from the appointment (a later day's visits have nothing to bill yet).
 */
export function RosterScreen({ canBill = false }: { canBill?: boolean }) {
  const clock = useClinicTime();
  const [date, setDate] = useState(clock.today);
  const [appointments, setAppointments] = useState<Appointment[] | null>(null);
  const [results, setResults] = useState<(RosterResult | undefined)[]>([]);
  const [summary, setSummary] = useState<RosterSummary | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<{ cause: unknown; otherwise: string } | null>(null);
  const [filter, setFilter] = useState<Filter>('all');
  // The day box is held until hydrated: a day chosen before then would not load its appointments.
  const hydrated = useHydrated();

  useEffect(() => {
    let current = true;
    apiFetch<{ appointments: Appointment[] }>(`/api/appointments?date=${encodeURIComponent(date)}`).then(
      (body) => {
        if (current) setAppointments(body.appointments);
      },
      (failure: unknown) => {
        if (!current) return;
        setError({ cause: failure, otherwise: 'The appointments could not be loaded. Reload the page.' });
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
    setFilter('all');
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
      setError({ cause: failure, otherwise: 'The connection was lost before every result arrived. Check again.' });
    } finally {
      setRunning(false);
    }
  }

  const done = results.filter(Boolean).length;
  const total = appointments?.length ?? 0;
  const attention = results.map((r) => attentionReasons(r?.result));
  const attentionCount = attention.filter((reasons) => reasons.length > 0).length;
  const shown = (appointments ?? [])
    .map((appointment, index) => ({ appointment, index }))
    .filter(({ index }) => filter === 'all' || attention[index]!.length > 0);

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
            disabled={running || !hydrated}
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
      <p className="muted" data-testid="roster-day">
        {clock.date(date)}
        {date === clock.today() ? ' (today at the clinic)' : ''} · times in {clock.timeZone.replaceAll('_', ' ')}
      </p>

      {error ? <ErrorNote error={error.cause} otherwise={error.otherwise} /> : null}

      {summary ? (
        <div className="card fd-summary" data-testid="summary" role="group" aria-label="Summary">
          <Counter name="Total" value={summary.total} testId="summary-total" />
          <Counter name="Active" value={summary.active} testId="summary-active" />
          <Counter name="Inactive" value={summary.inactive} testId="summary-inactive" />
          <Counter name="Unknown" value={summary.unknown} testId="summary-unknown" />
          <Counter name="Skipped" value={summary.skipped} testId="summary-skipped" />
          <Counter name="Needs attention" value={attentionCount} testId="summary-attention" />
        </div>
      ) : null}

      {done > 0 ? (
        <fieldset className="chip-filter" aria-label="Show">
          <legend>Show</legend>
          <label>
            <input type="radio" name="roster-filter" checked={filter === 'all'} onChange={() => setFilter('all')} />
            All appointments ({total})
          </label>
          <label>
            <input
              type="radio"
              name="roster-filter"
              checked={filter === 'attention'}
              onChange={() => setFilter('attention')}
            />
            Needs attention ({attentionCount})
          </label>
        </fieldset>
      ) : null}

      {appointments === null ? <p className="muted">Loading appointments…</p> : null}
      {appointments?.length === 0 && !error ? <p className="muted">No appointments on this day.</p> : null}
      {filter === 'attention' && shown.length === 0 && total > 0 ? (
        <p className="muted" data-testid="nothing-needs-attention">
          Nothing needs attention{running ? ' so far' : ''}.
        </p>
      ) : null}
      {shown.length ? (
        <table className="fd-stack fd-cards" aria-label="Appointments and coverage">
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
            {shown.map(({ appointment, index }) => (
              <RosterRow
                key={appointment.id}
                appointment={appointment}
                result={results[index]}
                pending={running && !results[index]}
                canBill={canBill && date <= clock.today()}
              />
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

function Counter({ name, value, testId }: { name: string; value: number; testId: string }) {
  return (
    <div>
      <div className="muted">{name}</div>
      <strong data-testid={testId} className="fd-count">
        {value}
      </strong>
    </div>
  );
}
