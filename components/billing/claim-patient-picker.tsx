'use client';
// The claim editor's patient: a search by name over GET /api/claims/patients?q= (claims:write, so billing, which
// has no patients:read, can use it), the matches as buttons, and the chosen patient named with their date of
// birth. A draft's patient does not change, so a draft shows the name only. `issue` is the problem found in the
// claim's patient (path patientId), shown beside the search.
import { useEffect, useState } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { Field, FieldIssue } from '@/components/form-field';
import { ErrorNote } from '@/components/error-note';
import { useDateFormat } from './use-date-format';

export type ChosenPatient = { patientId: string; name: string | null; birthDate: string | null };

type Match = { patientId: string; name: string; birthDate: string };

export function ClaimPatientPicker({
  chosen,
  locked,
  onChoose,
  issue,
}: {
  chosen: ChosenPatient | null;
  /** A saved draft: its patient is shown, not changed. */
  locked: boolean;
  onChoose: (patient: ChosenPatient) => void;
  issue?: string | undefined;
}) {
  const fmt = useDateFormat();
  const [query, setQuery] = useState('');
  // The answer for the query it was asked for: a newer query shows nothing until its own answer arrives.
  const [found, setFound] = useState<{ q: string; patients: Match[] } | null>(null);
  const q = query.trim();
  const matches = !locked && q.length >= 2 && found?.q === q ? found.patients : null;
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (locked || q.length < 2) return;
    let current = true;
    const timer = setTimeout(() => {
      apiFetch<{ patients: Match[] }>(`/api/claims/patients?q=${encodeURIComponent(q)}`).then(
        (body) => {
          if (!current) return;
          setFound({ q, patients: body.patients });
          setError(null);
        },
        (failure) => {
          if (current) setError(failure);
        },
      );
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [q, locked]);

  const named = chosen
    ? `${chosen.name ?? chosen.patientId}${chosen.birthDate ? `, born ${fmt.date(chosen.birthDate)}` : ''}`
    : null;

  if (locked)
    return (
      <div>
        <span>Patient</span>
        <p data-testid="claim-patient">{named}</p>
        <FieldIssue id="claim-patient-search" issue={issue} />
      </div>
    );

  return (
    <div>
      <Field id="claim-patient-search" label="Patient (search by name)" issue={issue}>
        {(control) => (
          <input
            {...control}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            autoComplete="off"
          />
        )}
      </Field>
      <p data-testid="claim-patient" aria-live="polite">
        {named ? `Chosen: ${named}` : 'No patient chosen yet.'}
      </p>
      {error ? <ErrorNote error={error} otherwise="The patient search did not answer." /> : null}
      {matches ? (
        matches.length ? (
          <ul aria-label="Matching patients" style={{ listStyle: 'none', padding: 0 }}>
            {matches.map((m) => (
              <li key={m.patientId}>
                <button
                  type="button"
                  className="secondary"
                  onClick={() => {
                    onChoose({ patientId: m.patientId, name: m.name, birthDate: m.birthDate });
                    setQuery('');
                  }}
                >
                  {m.name}, born {fmt.date(m.birthDate)}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No patient of this clinic matches.</p>
        )
      ) : null}
    </div>
  );
}
