'use client';
// One remittance over GET /api/remittances/{id}: the payment, the provider-level adjustments (PLB), and per
// claim what the payer paid, what it adjusted and why (CARC, RARC) in words, with the codes beside them.
import Link from 'next/link';
import type { z } from 'zod';
import type { RemittanceDetail } from '@/lib/remittances/remittance-view';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { useApiRead } from '@/components/billing/use-api-read';
import { CsvLink } from '@/components/csv-link';
import { adjustmentGroupWords } from '@/components/billing/words';
import { ErrorNote } from '@/components/error-note';

type Detail = z.infer<typeof RemittanceDetail>;
type RemittanceClaim = Detail['claims'][number];

const PAYMENT_METHOD: Record<string, string> = {
  ACH: 'Electronic funds transfer (ACH)',
  CHK: 'Check',
  BOP: 'Financial institution option',
  FWT: 'Wire transfer',
  NON: 'No payment',
};

export function RemittanceScreen({ remittanceId }: { remittanceId: string }) {
  const fmt = useDateFormat();
  const { data, error } = useApiRead<Detail>(`/api/remittances/${encodeURIComponent(remittanceId)}`);
  const remittance = data ?? null;

  if (!remittance) {
    return (
      <>
        <h1>Remittance</h1>
        {error ? <ErrorNote error={error} /> : <p role="status">Loading…</p>}
      </>
    );
  }

  return (
    <>
      <h1 className="billing-title">
        Remittance from {remittance.payerName || remittance.payerId}, trace {remittance.traceNumber}
      </h1>
      <CsvLink apiPath={`/api/remittances/${encodeURIComponent(remittanceId)}`} what="this remittance's lines" />
      <section className="card" aria-labelledby="remittance-summary-title">
        <h2 id="remittance-summary-title">Payment</h2>
        <dl className="billing-summary">
          <div>
            <dt>Paid</dt>
            <dd data-testid="remittance-payment">{formatDollars(remittance.paymentCents)}</dd>
          </div>
          <div>
            <dt>How</dt>
            <dd>{PAYMENT_METHOD[remittance.paymentMethod] ?? remittance.paymentMethod}</dd>
          </div>
          <div>
            <dt>Payment date</dt>
            <dd>{fmt.date(remittance.paymentDate)}</dd>
          </div>
          <div>
            <dt>Payer id</dt>
            <dd>{remittance.payerId}</dd>
          </div>
          <div>
            <dt>Bank deposit</dt>
            <dd>{remittance.depositMatched ? 'Matched to the deposit' : 'Not matched to a deposit yet'}</dd>
          </div>
          <div>
            <dt>Received</dt>
            <dd>{fmt.dateTime(remittance.createdAt)}</dd>
          </div>
        </dl>
        {remittance.providerAdjustments.length ? (
          <>
            <h3>Provider-level adjustments</h3>
            <table className="stack-table">
              <thead>
                <tr>
                  <th scope="col">Why</th>
                  <th scope="col">Reference</th>
                  <th scope="col" className="billing-amount">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {remittance.providerAdjustments.map((a, i) => (
                  <tr key={i}>
                    <td data-label="Why">
                      {a.description} <span className="muted">({a.reason})</span>
                    </td>
                    <td data-label="Reference">{a.reference ?? '—'}</td>
                    <td data-label="Amount" className="billing-amount">
                      {formatDollars(a.amountCents)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        ) : null}
      </section>
      {remittance.unmatchedCount ? (
        <section className="card" aria-labelledby="remittance-unmatched-title" data-testid="remittance-unmatched">
          <h2 id="remittance-unmatched-title">Not posted: no sent claim matches</h2>
          <p>
            {remittance.unmatchedCount === 1 ? 'One claim payment' : `${remittance.unmatchedCount} claim payments`} in
            this remittance name a claim that was never sent to the payer, or that this clinic does not have. They were
            not posted to any claim, bill or the ledger, and show as a reconciliation variance until someone sorts them
            out with the payer.
          </p>
        </section>
      ) : null}
      <h2>Claims</h2>
      {remittance.claims.map((claim, i) => (
        <ClaimPayment key={`${claim.claimId}-${i}`} claim={claim} />
      ))}
      <p>
        <Link href="/remittances">Back to the remittances</Link>
      </p>
    </>
  );
}

function ClaimPayment({ claim }: { claim: RemittanceClaim }) {
  const unmatched = claim.posting === 'unmatched';
  return (
    <section
      className="card"
      aria-label={`Claim ${claim.claimId}`}
      data-testid={`remittance-claim-${claim.claimId}`}
      data-posting={claim.posting}
    >
      <h3 className="billing-title">
        {unmatched ? (
          <>Claim {claim.claimId} (unmatched)</>
        ) : (
          <Link href={`/claims/${encodeURIComponent(claim.claimId)}`}>Claim {claim.claimId}</Link>
        )}
      </h3>
      {unmatched ? (
        <p className="error" data-testid="remittance-claim-unmatched">
          Not posted: {claim.unmatchedReason ?? 'no sent claim matches'}. The amounts below are what the payer wrote;
          none of it reached a claim, a patient bill or the ledger.
        </p>
      ) : null}
      <dl className="billing-summary">
        <div>
          <dt>Payer&apos;s decision</dt>
          <dd data-testid="remittance-claim-status">{claim.statusText}</dd>
        </div>
        <div>
          <dt>Patient</dt>
          <dd>{claim.patientId ?? '—'}</dd>
        </div>
        <div>
          <dt>Charged</dt>
          <dd>{formatDollars(claim.chargeCents)}</dd>
        </div>
        <div>
          <dt>Paid</dt>
          <dd data-testid="remittance-claim-paid">{formatDollars(claim.paidCents)}</dd>
        </div>
        <div>
          <dt>Patient responsibility</dt>
          <dd>{formatDollars(claim.patientResponsibilityCents)}</dd>
        </div>
        {claim.payerClaimId ? (
          <div>
            <dt>Payer&apos;s claim number</dt>
            <dd>{claim.payerClaimId}</dd>
          </div>
        ) : null}
      </dl>
      {claim.adjustments.length ? (
        <table className="stack-table">
          <caption style={{ textAlign: 'left', fontWeight: 600 }}>Adjustments</caption>
          <thead>
            <tr>
              <th scope="col">Who bears it</th>
              <th scope="col">Why</th>
              <th scope="col">Line</th>
              <th scope="col" className="billing-amount">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {claim.adjustments.map((a, i) => (
              <tr key={i}>
                <td data-label="Who bears it">{adjustmentGroupWords(a.group)}</td>
                <td data-label="Why">
                  {a.description}{' '}
                  <span className="muted">
                    ({a.group}-{a.reason})
                  </span>
                </td>
                <td data-label="Line">{a.line ?? 'Whole claim'}</td>
                <td data-label="Amount" className="billing-amount">
                  {formatDollars(a.amountCents)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {claim.remarks.length ? (
        <>
          <h4>Payer remarks</h4>
          <ul>
            {claim.remarks.map((r, i) => (
              <li key={i}>
                {r.description} <span className="muted">({r.code})</span>
                {r.line !== null ? <span className="muted"> · line {r.line}</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {claim.lines.length ? (
        <table className="stack-table">
          <caption style={{ textAlign: 'left', fontWeight: 600 }}>Service lines</caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Procedure</th>
              <th scope="col">Units</th>
              <th scope="col" className="billing-amount">
                Charged
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
                <td data-label="Procedure">
                  {line.procedureCode}
                  {line.modifiers.length ? ` (${line.modifiers.join(', ')})` : ''}
                </td>
                <td data-label="Units">{line.units}</td>
                <td data-label="Charged" className="billing-amount">
                  {formatDollars(line.chargeCents)}
                </td>
                <td data-label="Paid" className="billing-amount">
                  {formatDollars(line.paidCents)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
