'use client';
// One claim over GET /api/claims/{id} and /transmissions. A draft (and a user who can write claims) gets the
// editor; a claim the payer's front end rejected (277CA) shows why in words and "Edit and resubmit", which opens the
// same editor: saving reopens it as a draft (PATCH) and submitting sends it again as an original (frequency 1,
// DECISIONS "Claim lifecycle"); otherwise the claim's summary, lines, timeline in words, the X12 documents (raw, collapsed), "Check
// status" (GET /status?refresh=true: a 276 to the payer) and the appeal form (POST /appeal, step-up) for a
// denied or partly paid claim; its next action in words, and "Write off" (POST /write-off, step-up) for a sent claim
// with a balance and a user with svcpay:write; the linked claims and Correct / Void / Bill secondary are second-pass.tsx's.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import Link from 'next/link';
import { apiFetch } from '@/components/api-fetch';
import { describeApiError } from '@/components/describe-api-error';
import { ClaimEditor, type ClaimDraftView } from '@/components/billing/claim-editor';
import { ClaimStatusBadge } from '@/components/billing/claim-status-badge';
import { detailWords } from '@/components/billing/detail-words';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { claimStatusWords, DOCUMENT_WORDS, nextActionWords, timelineWords } from '@/components/billing/words';
import { RelatedClaims, SecondPassActions, type RelatedClaim } from './second-pass';
import { WriteOffSection } from './write-off-section';

type TimelineEvent = {
  kind: string;
  at: string;
  fromStatus: string | null;
  toStatus: string | null;
  detail?: unknown;
};

type Appeal = { reason: string; createdAt?: string; at?: string; createdBy?: string };

type ClaimDetail = Omit<ClaimDraftView, 'lines'> & {
  status: string;
  totalChargeCents: number;
  paidCents?: number;
  patientResponsibilityCents?: number;
  adjustmentCents?: number;
  writtenOffCents?: number;
  balanceCents?: number;
  nextAction?: string | null;
  nextActionReason?: string | null;
  payerId?: string | null;
  payerName?: string | null;
  memberId?: string | null;
  submittedAt?: string | null;
  createdAt?: string;
  statusReason?: string | null;
  lines: (NonNullable<ClaimDraftView['lines']>[number] & { paidCents?: number })[];
  timeline?: TimelineEvent[];
  appeals?: Appeal[];
  frequency?: string;
  payerRank?: string;
  payerClaimId?: string | null;
  relatedClaims?: RelatedClaim[];
};

type Transmission = { direction: 'out' | 'in'; kind: string; at: string; controlNumber: string; x12: string };

const APPEALABLE = ['denied', 'partially_paid'];
// Sent and not closed (lib/claims/write-off-claim.ts): the only claims a write-off may take from.
const WRITABLE_OFF = ['submitted', 'accepted', 'rejected', 'paid', 'partially_paid', 'denied', 'appealed'];

export function ClaimScreen({
  claimId,
  canWrite,
  canWriteOff = false,
  today,
}: {
  claimId: string;
  canWrite: boolean;
  /** svcpay:write: may write off the claim's balance. */
  canWriteOff?: boolean;
  today: string;
}) {
  const [claim, setClaim] = useState<ClaimDetail | null>(null);
  const [transmissions, setTransmissions] = useState<Transmission[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const path = `/api/claims/${encodeURIComponent(claimId)}`;

  // Bumped to read the claim again after an action (submit, status check, appeal).
  const [version, setVersion] = useState(0);
  // "Edit and resubmit" on a rejected claim: the editor instead of the summary.
  const [editing, setEditing] = useState(false);
  const load = () => setVersion((v) => v + 1);

  useEffect(() => {
    let current = true;
    Promise.all([
      apiFetch<ClaimDetail>(path),
      // The documents are a second read: a claim still shows without them.
      apiFetch<Transmission[] | { transmissions: Transmission[] }>(`${path}/transmissions`).catch(() => []),
    ]).then(
      ([detail, sent]) => {
        if (!current) return;
        setClaim(detail);
        setTransmissions(Array.isArray(sent) ? sent : (sent.transmissions ?? []));
        setError(null);
      },
      (failure) => {
        if (current)
          setError(describeApiError(failure, { withReference: true, otherwise: 'The claim could not be loaded.' }));
      },
    );
    return () => {
      current = false;
    };
  }, [path, version]);

  if (!claim) {
    return (
      <>
        <h1 className="billing-title">Claim {claimId}</h1>
        {error ? (
          <p role="alert" className="error">
            {error}
          </p>
        ) : (
          <p role="status">Loading…</p>
        )}
      </>
    );
  }

  if (canWrite && (claim.status === 'draft' || (claim.status === 'rejected' && editing))) {
    return (
      <>
        <h1 className="billing-title">Claim {claim.claimId}</h1>
        {claim.status === 'rejected' ? (
          <p className="muted">
            Fix what the payer rejected, then submit: the claim is sent again as an original claim.
          </p>
        ) : null}
        <p>
          <ClaimStatusBadge status={claim.status} />
          {claim.statusReason ? <span> · {claim.statusReason}</span> : null}
        </p>
        <ClaimEditor
          draft={claim}
          today={today}
          onSubmitted={() => {
            setNotice(claim.status === 'rejected' ? 'Claim resubmitted.' : 'Claim submitted.');
            setEditing(false);
            load();
          }}
        />
        <Timeline events={claim.timeline ?? []} />
        <Transmissions transmissions={transmissions} />
      </>
    );
  }

  return (
    <>
      <h1 className="billing-title">Claim {claim.claimId}</h1>
      <p role="status" data-testid="claim-notice">
        {notice}
      </p>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <Summary claim={claim} />
      {claim.status === 'rejected' ? (
        <section className="card" aria-labelledby="claim-next-title" data-testid="claim-next-step">
          <h2 id="claim-next-title">Next step</h2>
          <p>
            The payer did not take this claim into processing, so nothing was paid or denied. Correct what the reason
            above names (often the member id or the patient&apos;s details on file) and send it again.
          </p>
          {canWrite ? (
            <button type="button" onClick={() => setEditing(true)}>
              Edit and resubmit
            </button>
          ) : (
            <p className="muted">Someone who can write claims can edit and resubmit it.</p>
          )}
        </section>
      ) : null}
      <RelatedClaims claim={claim} />
      <Lines claim={claim} />
      {canWrite ? (
        <SecondPassActions
          claim={claim}
          onDone={(message) => {
            setNotice(message);
            load();
          }}
        />
      ) : null}
      <StatusCheck
        path={path}
        onDone={(message) => {
          setNotice(message);
          load();
        }}
      />
      <Timeline events={claim.timeline ?? []} />
      {APPEALABLE.includes(claim.status) || claim.appeals?.length ? (
        <AppealSection
          path={path}
          claim={claim}
          canAppeal={canWrite && APPEALABLE.includes(claim.status)}
          onDone={(message) => {
            setNotice(message);
            load();
          }}
        />
      ) : null}
      {canWriteOff && WRITABLE_OFF.includes(claim.status) && (claim.balanceCents ?? 0) > 0 ? (
        <WriteOffSection
          // A new balance starts the form again with it as the amount.
          key={claim.balanceCents}
          path={path}
          balanceCents={claim.balanceCents ?? 0}
          onDone={(message) => {
            setNotice(message);
            load();
          }}
        />
      ) : null}
      <Transmissions transmissions={transmissions} />
    </>
  );
}

function Summary({ claim }: { claim: ClaimDetail }) {
  const fmt = useDateFormat();
  return (
    <section className="card" aria-labelledby="claim-summary-title">
      <h2 id="claim-summary-title">Summary</h2>
      <dl className="billing-summary">
        <div>
          <dt>State</dt>
          <dd data-testid="claim-status" data-status={claim.status}>
            <ClaimStatusBadge status={claim.status} />
          </dd>
        </div>
        {claim.statusReason ? (
          <div>
            <dt>Why</dt>
            <dd data-testid="claim-status-reason">{claim.statusReason}</dd>
          </div>
        ) : null}
        <div>
          <dt>Patient</dt>
          <dd data-testid="claim-patient-name">{claim.patientName ?? claim.patientId}</dd>
        </div>
        <div>
          <dt>Date of birth</dt>
          <dd data-testid="claim-patient-birth-date">{fmt.date(claim.patientBirthDate)}</dd>
        </div>
        <div>
          <dt>Payer</dt>
          <dd>
            {claim.payerName ?? '—'}
            {claim.payerId ? <span className="muted"> (payer id {claim.payerId})</span> : null}
          </dd>
        </div>
        <div>
          <dt>Member id</dt>
          <dd>{claim.memberId ?? '—'}</dd>
        </div>
        <div>
          <dt>Date of service</dt>
          <dd>{fmt.date(claim.serviceDate)}</dd>
        </div>
        <div>
          <dt>Place of service</dt>
          <dd>{claim.placeOfService ?? '11'}</dd>
        </div>
        <div>
          <dt>Diagnoses</dt>
          <dd>{claim.diagnoses?.length ? claim.diagnoses.join(', ') : '—'}</dd>
        </div>
        <div>
          <dt>Total charge</dt>
          <dd>{formatDollars(claim.totalChargeCents)}</dd>
        </div>
        <div>
          <dt>Paid by the payer</dt>
          <dd data-testid="claim-paid">{formatDollars(claim.paidCents ?? 0)}</dd>
        </div>
        <div>
          <dt>Patient responsibility</dt>
          <dd>{formatDollars(claim.patientResponsibilityCents ?? 0)}</dd>
        </div>
        <div>
          <dt>Adjusted</dt>
          <dd>{formatDollars(claim.adjustmentCents ?? 0)}</dd>
        </div>
        {claim.writtenOffCents ? (
          <div>
            <dt>Written off</dt>
            <dd data-testid="claim-written-off">{formatDollars(claim.writtenOffCents)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Balance</dt>
          <dd data-testid="claim-balance">{formatDollars(claim.balanceCents ?? 0)}</dd>
        </div>
        {claim.nextAction ? (
          <div>
            <dt>Next action</dt>
            <dd data-testid="claim-next-action" data-action={claim.nextAction}>
              <strong>{nextActionWords(claim.nextAction)}.</strong> {claim.nextActionReason}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Submitted</dt>
          <dd>{fmt.dateTime(claim.submittedAt)}</dd>
        </div>
      </dl>
    </section>
  );
}

function Lines({ claim }: { claim: ClaimDetail }) {
  const fmt = useDateFormat();
  return (
    <section className="card" aria-labelledby="claim-lines-title">
      <h2 id="claim-lines-title">Service lines</h2>
      <table className="stack-table">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Procedure</th>
            <th scope="col">Modifiers</th>
            <th scope="col">Diagnoses</th>
            <th scope="col">Units</th>
            <th scope="col">Date</th>
            <th scope="col" className="billing-amount">
              Charge
            </th>
            <th scope="col" className="billing-amount">
              Paid
            </th>
          </tr>
        </thead>
        <tbody>
          {claim.lines.map((line, i) => (
            <tr key={i}>
              <td data-label="Line">{i + 1}</td>
              <td data-label="Procedure">{line.procedureCode}</td>
              <td data-label="Modifiers">{line.modifiers?.length ? line.modifiers.join(', ') : '—'}</td>
              <td data-label="Diagnoses">
                {line.diagnosisPointers.map((p) => claim.diagnoses?.[p - 1] ?? `#${p}`).join(', ')}
              </td>
              <td data-label="Units">{line.units}</td>
              <td data-label="Date">{fmt.date(line.serviceDate ?? claim.serviceDate)}</td>
              <td data-label="Charge" className="billing-amount">
                {formatDollars(line.chargeCents)}
              </td>
              <td data-label="Paid" className="billing-amount">
                {formatDollars(line.paidCents ?? 0)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Timeline({ events }: { events: TimelineEvent[] }) {
  const fmt = useDateFormat();
  return (
    <section className="card" aria-labelledby="claim-timeline-title">
      <h2 id="claim-timeline-title">Timeline</h2>
      {events.length ? (
        <ol className="billing-timeline" data-testid="claim-timeline">
          {events.map((event, i) => {
            const detail = detailWords(event.detail);
            return (
              <li key={i} data-kind={event.kind}>
                <strong>{timelineWords(event.kind)}</strong> <span className="muted">{fmt.dateTime(event.at)}</span>
                {event.toStatus && event.toStatus !== event.fromStatus ? (
                  <div>
                    {event.fromStatus ? `${claimStatusWords(event.fromStatus)} → ` : ''}
                    {claimStatusWords(event.toStatus)}
                  </div>
                ) : null}
                {detail ? <div className="muted">{detail}</div> : null}
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="muted">Nothing has happened to this claim yet.</p>
      )}
    </section>
  );
}

function StatusCheck({ path, onDone }: { path: string; onDone: (message: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function check() {
    setBusy(true);
    setError(null);
    try {
      const answer = await apiFetch<{ status?: string; correlationId?: string }>(`${path}/status?refresh=true`);
      onDone(
        `Asked the payer for this claim's status${answer.status ? `: ${claimStatusWords(answer.status)}` : ''}.` +
          ' The answer is on the timeline.',
      );
    } catch (failure) {
      setError(describeApiError(failure, { withReference: true, otherwise: 'The payer could not be asked.' }));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card" aria-labelledby="claim-status-title">
      <h2 id="claim-status-title">Status with the payer</h2>
      <p className="muted">Sends a status request (276) to the payer through the clearinghouse.</p>
      <button type="button" onClick={() => void check()} disabled={busy}>
        {busy ? 'Asking the payer…' : 'Check status'}
      </button>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </section>
  );
}

function AppealSection({
  path,
  claim,
  canAppeal,
  onDone,
}: {
  path: string;
  claim: ClaimDetail;
  canAppeal: boolean;
  onDone: (message: string) => void;
}) {
  const fmt = useDateFormat();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The denial queue's "Appeal" links here with #appeal: the form appears once the claim has loaded, so the
  // browser's own jump to the anchor came too early.
  useEffect(() => {
    if (window.location.hash !== '#appeal') return;
    reasonRef.current?.scrollIntoView({ block: 'center' });
    reasonRef.current?.focus();
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!reason.trim()) {
      setFieldError('Say why the payer should pay this claim.');
      return;
    }
    setFieldError(null);
    setBusy(true);
    try {
      const answer = await apiFetch<{ correlationId?: string }>(`${path}/appeal`, {
        method: 'POST',
        json: { reason: reason.trim() },
      });
      setReason('');
      onDone(`Appeal filed${answer.correlationId ? ` (reference ${answer.correlationId})` : ''}.`);
    } catch (failure) {
      setError(describeApiError(failure, { withReference: true, otherwise: 'The appeal could not be filed.' }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" id="appeal" aria-labelledby="claim-appeal-title">
      <h2 id="claim-appeal-title">Appeal</h2>
      {claim.appeals?.length ? (
        <ul>
          {claim.appeals.map((appeal, i) => (
            <li key={i}>
              {fmt.dateTime(appeal.createdAt ?? appeal.at)}: {appeal.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {canAppeal ? (
        <form onSubmit={submit} noValidate>
          <label htmlFor="appeal-reason">Why the payer should pay this claim</label>
          <textarea
            ref={reasonRef}
            id="appeal-reason"
            rows={4}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'appeal-reason-error' : undefined}
          />
          {fieldError ? (
            <div id="appeal-reason-error" className="error">
              {fieldError}
            </div>
          ) : null}
          <p className="muted">Filing an appeal asks you to confirm it&apos;s you.</p>
          <button type="submit" disabled={busy}>
            {busy ? 'Filing…' : 'File appeal'}
          </button>
          {error ? (
            <p role="alert" className="error">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
    </section>
  );
}

function Transmissions({ transmissions }: { transmissions: Transmission[] }) {
  const fmt = useDateFormat();
  return (
    <section className="card" aria-labelledby="claim-transmissions-title">
      <h2 id="claim-transmissions-title">Documents sent and received</h2>
      {transmissions.length ? (
        <ul style={{ listStyle: 'none', padding: 0 }} data-testid="claim-transmissions">
          {transmissions.map((t, i) => (
            <li key={i}>
              <details>
                <summary>
                  {t.direction === 'out' ? 'Sent: ' : 'Received: '}
                  {DOCUMENT_WORDS[t.kind] ?? t.kind} · {fmt.dateTime(t.at)}{' '}
                  <span className="muted">(control number {t.controlNumber})</span>
                </summary>
                <pre className="billing-x12">{t.x12.replace(/~(?!\r?\n)/g, '~\n')}</pre>
              </details>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No documents yet.</p>
      )}
      <p>
        <Link href="/claims">Back to the claims</Link>
      </p>
    </section>
  );
}
