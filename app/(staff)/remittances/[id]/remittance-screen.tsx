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
import { DataTable } from '@/components/data-table';
import { adjustmentGroupWords } from '@/components/billing/words';
import { ErrorNote } from '@/components/error-note';
import { SummaryItem, SummaryList } from '@/components/summary-list';

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
        {error ? (
          <>
            <ErrorNote error={error} />
            <p>
              <Link href="/remittances">Back to the remittances</Link>
            </p>
          </>
        ) : (
          <p role="status">Loading…</p>
        )}
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
        <SummaryList>
          <SummaryItem term="Paid" testId="remittance-payment">
            {formatDollars(remittance.paymentCents)}
          </SummaryItem>
          <SummaryItem term="How">{PAYMENT_METHOD[remittance.paymentMethod] ?? remittance.paymentMethod}</SummaryItem>
          <SummaryItem term="Payment date">{fmt.date(remittance.paymentDate)}</SummaryItem>
          <SummaryItem term="Payer id">{remittance.payerId}</SummaryItem>
          <SummaryItem term="Bank deposit">
            {remittance.depositMatched ? 'Matched to the deposit' : 'Not matched to a deposit yet'}
          </SummaryItem>
          <SummaryItem term="Received">{fmt.dateTime(remittance.createdAt)}</SummaryItem>
        </SummaryList>
        {remittance.providerAdjustments.length ? (
          <>
            <h3>Provider-level adjustments</h3>
            <DataTable
              rows={remittance.providerAdjustments}
              label="Provider-level adjustments"
              empty={null}
              rowKey={(_, index) => String(index)}
              columns={[
                {
                  header: 'Why',
                  cell: (a) => (
                    <>
                      {a.description} <span className="muted">({a.reason})</span>
                    </>
                  ),
                },
                { header: 'Reference', cell: (a) => a.reference ?? '—' },
                { header: 'Amount', amount: true, cell: (a) => formatDollars(a.amountCents) },
              ]}
            />
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
      <SummaryList>
        <SummaryItem term="Payer's decision" testId="remittance-claim-status">
          {claim.statusText}
        </SummaryItem>
        <SummaryItem term="Patient" testId="remittance-claim-patient">
          {claim.patientName ?? claim.patientId ?? '—'}
        </SummaryItem>
        <SummaryItem term="Charged">{formatDollars(claim.chargeCents)}</SummaryItem>
        <SummaryItem term="Paid" testId="remittance-claim-paid">
          {formatDollars(claim.paidCents)}
        </SummaryItem>
        <SummaryItem term="Patient responsibility">{formatDollars(claim.patientResponsibilityCents)}</SummaryItem>
        {claim.payerClaimId ? <SummaryItem term="Payer's claim number">{claim.payerClaimId}</SummaryItem> : null}
      </SummaryList>
      {claim.adjustments.length ? (
        <>
          <h4>Adjustments</h4>
          <DataTable
            rows={claim.adjustments}
            label="Adjustments"
            empty={null}
            rowKey={(_, index) => String(index)}
            columns={[
              { header: 'Who bears it', cell: (a) => adjustmentGroupWords(a.group) },
              {
                header: 'Why',
                cell: (a) => (
                  <>
                    {a.description}{' '}
                    <span className="muted">
                      ({a.group}-{a.reason})
                    </span>
                  </>
                ),
              },
              { header: 'Line', cell: (a) => a.line ?? 'Whole claim' },
              { header: 'Amount', amount: true, cell: (a) => formatDollars(a.amountCents) },
            ]}
          />
        </>
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
        <>
          <h4>Service lines</h4>
          <DataTable
            rows={claim.lines}
            label="Service lines"
            empty={null}
            rowKey={(_, index) => String(index)}
            columns={[
              { header: 'Line', cell: (_, index) => index + 1 },
              {
                header: 'Procedure',
                cell: (line) =>
                  `${line.procedureCode}${line.modifiers.length ? ` (${line.modifiers.join(', ')})` : ''}`,
              },
              { header: 'Units', cell: (line) => line.units },
              { header: 'Charged', amount: true, cell: (line) => formatDollars(line.chargeCents) },
              { header: 'Paid', amount: true, cell: (line) => formatDollars(line.paidCents) },
            ]}
          />
        </>
      ) : null}
    </section>
  );
}
