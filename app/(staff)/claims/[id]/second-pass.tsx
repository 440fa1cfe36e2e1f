'use client';
// The claim page's second pass (DECISIONS "Claim lifecycle"): the links between an original, its replacement or
// void and its secondary claim, and the actions the claim's state allows: Correct (POST /correct, a replacement
// with the edited fields), Void (POST /void with a reason) for a claim the payer took and numbered, and Bill
// secondary (POST /secondary) for a primary its payer's 835 left paid, partly paid or denied. Each asks for a
// step-up through apiFetch's dialog. A rejected or draft claim gets none of these: it is edited and sent again as an
// original.
import { useState, type FormEvent } from 'react';
import Link from 'next/link';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { Form } from '@/components/form';
import { isStepUpCancelled } from '@/components/step-up-prompt';
import { ClaimStatusBadge } from '@/components/billing/claim-status-badge';
import { centsToDollarInput, parseDollarInput } from '@/components/billing/format';
import { ErrorNote } from '@/components/error-note';
import type { ClaimDetail } from '@/lib/claims/get-claim';

/** What the second pass reads of the claim GET /api/claims/{id} answers. */
type SecondPassClaim = Pick<
  ClaimDetail,
  | 'claimId'
  | 'status'
  | 'frequency'
  | 'payerRank'
  | 'payerClaimId'
  | 'placeOfService'
  | 'diagnoses'
  | 'lines'
  | 'relatedClaims'
>;

const REPLACEABLE = ['accepted', 'paid', 'partially_paid', 'denied', 'appealed'];
const SECONDARY_AFTER = ['paid', 'partially_paid', 'denied'];
const IN_FLIGHT = ['draft', 'sending', 'submitted'];

const RELATION_WORDS: Record<string, string> = {
  replaces: 'Replaces',
  voids: 'Voids',
  replaced_by: 'Replaced by',
  voided_by: 'Voided by',
  primary: 'Secondary claim of',
  secondary: 'Billed to the secondary payer as',
};

const KIND_WORDS: Record<string, string> = {
  '7': 'Replacement claim (frequency 7)',
  '8': 'Void (frequency 8)',
};

/** Where this claim sits among its linked claims, for the page's header and timeline. */
export function RelatedClaims({ claim }: { claim: SecondPassClaim }) {
  const related = claim.relatedClaims;
  const kind = KIND_WORDS[claim.frequency];
  if (!related.length && !kind && claim.payerRank !== 'secondary') return null;
  return (
    <section className="card" aria-labelledby="claim-links-title" data-testid="claim-links">
      <h2 id="claim-links-title">Linked claims</h2>
      <p className="muted">
        {[kind, claim.payerRank === 'secondary' ? 'Billed to the secondary coverage' : null]
          .filter(Boolean)
          .join(' · ') || 'Original claim to the primary coverage'}
      </p>
      <ul className="billing-timeline">
        {related.map((other) => (
          <li key={other.claimId} data-relation={other.relation}>
            {RELATION_WORDS[other.relation] ?? other.relation}{' '}
            <Link href={`/claims/${encodeURIComponent(other.claimId)}`}>{other.claimId}</Link>{' '}
            <ClaimStatusBadge status={other.status} />
          </li>
        ))}
      </ul>
    </section>
  );
}

type LineInput = { procedureCode: string; modifiers: string; units: string; charge: string; pointers: number[] };

/** The actions the state allows, each a small form; `onDone` reads the claim again with a notice. */
export function SecondPassActions({ claim, onDone }: { claim: SecondPassClaim; onDone: (message: string) => void }) {
  const [open, setOpen] = useState<'correct' | 'void' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState('');
  const [placeOfService, setPlaceOfService] = useState(claim.placeOfService);
  const [diagnoses, setDiagnoses] = useState(claim.diagnoses.join(', '));
  const [lines, setLines] = useState<LineInput[]>(() =>
    claim.lines.map((line) => ({
      procedureCode: line.procedureCode,
      modifiers: line.modifiers.join(', '),
      units: String(line.units),
      charge: centsToDollarInput(line.chargeCents),
      pointers: line.diagnosisPointers,
    })),
  );
  const related = claim.relatedClaims;
  const pending = related.some(
    (r) => (r.relation === 'replaced_by' || r.relation === 'voided_by') && IN_FLIGHT.includes(r.status),
  );
  const canReplace = REPLACEABLE.includes(claim.status) && !pending;
  const hasSecondary = related.some((r) => r.relation === 'secondary' && !['rejected', 'closed'].includes(r.status));
  const canBillSecondary = claim.payerRank !== 'secondary' && SECONDARY_AFTER.includes(claim.status) && !hasSecondary;
  if (!canReplace && !canBillSecondary) return null;

  async function send(action: 'correct' | 'void' | 'secondary', json: unknown, words: string) {
    setBusy(true);
    setError(null);
    try {
      const answer = await apiFetch<{ claimId: string; status: string }>(
        `/api/claims/${encodeURIComponent(claim.claimId)}/${action}`,
        { method: 'POST', json, stepUpDescription: words },
      );
      setOpen(null);
      onDone(`${words}: claim ${answer.claimId} was sent (${answer.status.replace('_', ' ')}).`);
    } catch (failure) {
      // The server's answer says what went wrong; a call that got none says which action did not go through.
      if (!isStepUpCancelled(failure)) setError(failure instanceof ApiError ? failure : `${words} did not go through.`);
    } finally {
      setBusy(false);
    }
  }

  function submitCorrection(event: FormEvent) {
    event.preventDefault();
    const parsed = lines.map((line) => ({
      procedureCode: line.procedureCode.trim(),
      modifiers: line.modifiers.split(/[\s,]+/).filter(Boolean),
      diagnosisPointers: line.pointers,
      units: Number(line.units),
      chargeCents: parseDollarInput(line.charge),
    }));
    if (parsed.some((line) => line.chargeCents === null || !(line.units > 0) || !line.procedureCode)) {
      setError('Each line needs a procedure code, units above zero and a charge in dollars.');
      return;
    }
    void send(
      'correct',
      {
        placeOfService: placeOfService.trim(),
        diagnoses: diagnoses.split(/[\s,]+/).filter(Boolean),
        lines: parsed,
      },
      'Correct the claim',
    );
  }

  const setLine = (i: number, patch: Partial<LineInput>) =>
    setLines((all) => all.map((line, k) => (k === i ? { ...line, ...patch } : line)));

  return (
    <section className="card" aria-labelledby="claim-second-pass-title" data-testid="claim-second-pass">
      <h2 id="claim-second-pass-title">Correct, void or bill the secondary</h2>
      <p className="muted">Each asks you to confirm it&apos;s you, and sends a new claim linked to this one.</p>
      <div className="billing-actions">
        {canReplace ? (
          <>
            <button type="button" onClick={() => setOpen(open === 'correct' ? null : 'correct')} disabled={busy}>
              Correct
            </button>
            <button type="button" onClick={() => setOpen(open === 'void' ? null : 'void')} disabled={busy}>
              Void
            </button>
          </>
        ) : null}
        {canBillSecondary ? (
          <button type="button" onClick={() => void send('secondary', {}, 'Bill the secondary payer')} disabled={busy}>
            {busy ? 'Sending…' : 'Bill secondary'}
          </button>
        ) : null}
      </div>
      {canReplace && !claim.payerClaimId ? (
        <p className="muted">
          The payer has not sent its claim number yet (277CA or remittance); a correction or void needs it.
        </p>
      ) : null}
      {open === 'void' ? (
        <Form
          onSubmit={(event) => {
            event.preventDefault();
            if (!reason.trim()) setError('Say why the claim is voided.');
            else void send('void', { reason: reason.trim() }, 'Void the claim');
          }}
          noValidate
        >
          <label htmlFor="void-reason">Why this claim is withdrawn</label>
          <textarea id="void-reason" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
          <button type="submit" disabled={busy}>
            {busy ? 'Sending…' : 'Send the void'}
          </button>
        </Form>
      ) : null}
      {open === 'correct' ? (
        <Form onSubmit={submitCorrection} noValidate data-testid="correct-form">
          <label htmlFor="correct-pos">Place of service</label>
          <input id="correct-pos" value={placeOfService} onChange={(e) => setPlaceOfService(e.target.value)} />
          <label htmlFor="correct-diagnoses">Diagnoses (ICD-10-CM, comma separated)</label>
          <input id="correct-diagnoses" value={diagnoses} onChange={(e) => setDiagnoses(e.target.value)} />
          {lines.map((line, i) => (
            <fieldset key={i}>
              <legend>Line {i + 1}</legend>
              <label htmlFor={`correct-code-${i}`}>Procedure</label>
              <input
                id={`correct-code-${i}`}
                value={line.procedureCode}
                onChange={(e) => setLine(i, { procedureCode: e.target.value })}
              />
              <label htmlFor={`correct-modifiers-${i}`}>Modifiers</label>
              <input
                id={`correct-modifiers-${i}`}
                value={line.modifiers}
                onChange={(e) => setLine(i, { modifiers: e.target.value })}
              />
              <label htmlFor={`correct-units-${i}`}>Units</label>
              <input
                id={`correct-units-${i}`}
                inputMode="numeric"
                value={line.units}
                onChange={(e) => setLine(i, { units: e.target.value })}
              />
              <label htmlFor={`correct-charge-${i}`}>Charge ($)</label>
              <input
                id={`correct-charge-${i}`}
                inputMode="decimal"
                value={line.charge}
                onChange={(e) => setLine(i, { charge: e.target.value })}
              />
            </fieldset>
          ))}
          <button type="submit" disabled={busy}>
            {busy ? 'Sending…' : 'Send the replacement'}
          </button>
        </Form>
      ) : null}
      {error ? <ErrorNote error={error} /> : null}
    </section>
  );
}
