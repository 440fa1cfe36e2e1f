'use client';
// One claim over GET /api/claims/{id} and /transmissions. A draft (and a user who can write claims) gets the
// editor; a claim the payer's front end rejected (277CA) shows why in words and "Edit and resubmit", which opens the
// same editor: saving reopens it as a draft (PATCH) and submitting sends it again as an original (frequency 1,
// DECISIONS "Claim lifecycle"); otherwise the claim's summary, lines, timeline in words, the X12 documents (raw, collapsed), "Check
// status" (GET /status?refresh=true: a 276 to the payer) and the appeal form (POST /appeal, step-up) for a
// denied or partly paid claim; its next action in words, and "Write off" (POST /write-off, step-up) for a sent claim
// with a balance and a user with svcpay:write; the linked claims and Correct / Void / Bill secondary are second-pass.tsx's.
import { useEffect, useState } from 'react';
import Link from 'next/link';
import { apiFetch } from '@/components/api-fetch';
import { ClaimEditor } from '@/components/billing/claim-editor';
import { ClaimStatusBadge } from '@/components/billing/claim-status-badge';
import { ErrorNote } from '@/components/error-note';
import { RelatedClaims, SecondPassActions } from './second-pass';
import { WriteOffSection } from './write-off-section';
import type { ClaimDetail } from '@/lib/claims/get-claim';
import type { TransmissionView as Transmission } from '@/lib/claims/list-transmissions';
import { ClaimSummary, ClaimLines } from './claim-summary';
import { ClaimTimeline, ClaimTransmissions } from './claim-history';
import { StatusCheck } from './status-check';
import { AppealSection } from './appeal-section';

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
  const [error, setError] = useState<unknown>(null);
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
        setTransmissions(Array.isArray(sent) ? sent : sent.transmissions);
        setError(null);
      },
      (failure) => {
        if (current) setError(failure);
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
          <>
            <ErrorNote error={error} otherwise="The claim could not be loaded." />
            <p>
              <Link href="/claims">Back to the claims</Link>
            </p>
          </>
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
        <ClaimTimeline events={claim.timeline} />
        <ClaimTransmissions transmissions={transmissions} />
      </>
    );
  }

  return (
    <>
      <h1 className="billing-title">Claim {claim.claimId}</h1>
      <p role="status" data-testid="claim-notice">
        {notice}
      </p>
      {error ? <ErrorNote error={error} otherwise="The claim could not be loaded." /> : null}
      <ClaimSummary claim={claim} />
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
      <ClaimLines claim={claim} />
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
      <ClaimTimeline events={claim.timeline} />
      {APPEALABLE.includes(claim.status) || claim.appeals.length ? (
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
      {canWriteOff && WRITABLE_OFF.includes(claim.status) && claim.balanceCents > 0 ? (
        <WriteOffSection
          // A new balance starts the form again with it as the amount.
          key={claim.balanceCents}
          path={path}
          balanceCents={claim.balanceCents}
          onDone={(message) => {
            setNotice(message);
            load();
          }}
        />
      ) : null}
      <ClaimTransmissions transmissions={transmissions} />
    </>
  );
}
