'use client';
// The denial work queue: one card per claim with what the payer said (CARC and RARC in words, codes beside),
// the amounts, the next action with its reason, and "Appeal" opening the claim page's appeal form (which asks for a
// step-up). A filter per next action with its count narrows the queue (GET /api/denials?nextAction=).
import Link from 'next/link';
import { useState } from 'react';
import type { z } from 'zod';
import type { DenialList } from '@/lib/remittances/list-denials';
import { ClaimStatusBadge } from '@/components/billing/claim-status-badge';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { useApiRead } from '@/components/billing/use-api-read';
import { CsvLink } from '@/components/csv-link';
import { adjustmentGroupWords, nextActionWords, NEXT_ACTION_WORDS } from '@/components/billing/words';
import { ErrorNote } from '@/components/error-note';
import { SummaryItem, SummaryList } from '@/components/summary-list';

type Queue = z.infer<typeof DenialList>;

export function DenialsScreen({ canAppeal, initialAction = '' }: { canAppeal: boolean; initialAction?: string }) {
  const fmt = useDateFormat();
  const [action, setAction] = useState(initialAction);
  const { data, error } = useApiRead<Queue>(
    action ? `/api/denials?nextAction=${encodeURIComponent(action)}` : '/api/denials',
  );
  const denials = data?.denials ?? null;
  const counts: Partial<Record<string, number>> = data?.counts ?? {};
  const total = Object.values(counts).reduce((sum: number, n) => sum + (n ?? 0), 0);
  const filter = (
    <fieldset className="row" data-testid="denials-filter">
      <legend>Next action</legend>
      {[
        ['', 'All', total] as const,
        ...Object.keys(NEXT_ACTION_WORDS).map((a) => [a, nextActionWords(a), counts[a] ?? 0] as const),
      ].map(([value, words, count]) => (
        <label key={value || 'all'}>
          <input
            type="radio"
            name="next-action"
            value={value}
            checked={action === value}
            onChange={() => setAction(value)}
          />{' '}
          {words}{' '}
          <span className="muted" data-testid={`denials-count-${value || 'all'}`}>
            ({count})
          </span>
        </label>
      ))}
    </fieldset>
  );

  if (error) return <ErrorNote error={error} />;
  if (denials === null) return <p role="status">Loading…</p>;
  if (!denials.length)
    return (
      <>
        {filter}
        <p className="card">{action ? 'No claims with this next action.' : 'No denied or partly paid claims.'}</p>
      </>
    );

  return (
    <>
      {filter}
      <p role="status" className="muted" data-testid="denials-count">
        {denials.length} claim{denials.length === 1 ? '' : 's'} to work
      </p>
      <CsvLink apiPath="/api/denials" what="the denials" />
      <ul style={{ listStyle: 'none', padding: 0 }}>
        {denials.map((d) => (
          <li key={d.claimId} className="card" data-testid={`denial-${d.claimId}`} data-status={d.status}>
            <h2 className="billing-title" style={{ marginTop: 0 }}>
              <Link href={d.claimPath || `/claims/${encodeURIComponent(d.claimId)}`}>Claim {d.claimId}</Link>{' '}
              <ClaimStatusBadge status={d.status} />
            </h2>
            <SummaryList>
              <SummaryItem term="Patient">{d.patientName ?? d.patientId}</SummaryItem>
              <SummaryItem term="Payer">{d.payerName ?? d.payerId ?? '—'}</SummaryItem>
              <SummaryItem term="Date of service">{fmt.date(d.serviceDate)}</SummaryItem>
              <SummaryItem term="Charged">{formatDollars(d.totalChargeCents)}</SummaryItem>
              <SummaryItem term="Paid">{formatDollars(d.paidCents)}</SummaryItem>
              <SummaryItem term="Patient responsibility">{formatDollars(d.patientResponsibilityCents)}</SummaryItem>
              <SummaryItem term="Balance" testId="denial-balance">
                {formatDollars(d.balanceCents)}
              </SummaryItem>
            </SummaryList>
            {d.statusReason ? <p>{d.statusReason}</p> : null}
            {d.codes.length ? (
              <>
                <h3>Why the payer did not pay</h3>
                <ul data-testid="denial-codes">
                  {d.codes.map((c, i) => (
                    <li key={i}>
                      {c.description}{' '}
                      <span className="muted">
                        ({adjustmentGroupWords(c.group)}, {c.group}-{c.reason}
                        {c.line !== null ? `, line ${c.line}` : ''})
                      </span>{' '}
                      {formatDollars(c.amountCents)}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            {d.remarks.length ? (
              <>
                <h3>Payer remarks</h3>
                <ul>
                  {d.remarks.map((r, i) => (
                    <li key={i}>
                      {r.description} <span className="muted">({r.code})</span>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            <p data-testid="denial-next-action" data-action={d.nextAction}>
              <strong>Next action: {nextActionWords(d.nextAction)}.</strong> {d.nextActionReason}
            </p>
            <p className="row">
              {canAppeal ? (
                <Link className="button-link" href={`/claims/${encodeURIComponent(d.claimId)}#appeal`}>
                  Appeal claim {d.claimId}
                </Link>
              ) : null}
              {d.remittanceId ? (
                <Link href={`/remittances/${encodeURIComponent(d.remittanceId)}`}>See the remittance</Link>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
