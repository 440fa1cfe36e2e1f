'use client';
// Variances grouped by day. A day-level variance shows the ledger, FBO and rail totals; a remittance/deposit
// variance shows the trace and what each side said.
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { VarianceList } from '@/lib/reconciliation/list-variances';
import { apiFetch } from '@/components/api-fetch';
import { describeApiError } from '@/components/describe-api-error';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { varianceKindWords } from '@/components/billing/words';

type Variance = z.infer<typeof VarianceList>['variances'][number];

export function VariancesScreen() {
  const fmt = useDateFormat();
  const [variances, setVariances] = useState<Variance[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    apiFetch<{ variances: Variance[] }>('/api/reconciliation/variances').then(
      (body) => {
        if (current) setVariances(body.variances);
      },
      (failure) => {
        if (current) setError(describeApiError(failure, { withReference: true }));
      },
    );
    return () => {
      current = false;
    };
  }, []);

  if (error)
    return (
      <p role="alert" className="error">
        {error}
      </p>
    );
  if (variances === null) return <p role="status">Loading…</p>;
  if (!variances.length) return <p className="card">No variances: every day reconciled.</p>;

  const days = [...new Set(variances.map((v) => v.day))];
  return (
    <>
      {days.map((day) => (
        <section key={day} className="card" aria-labelledby={`day-${day}`} data-testid={`variance-day-${day}`}>
          <h2 id={`day-${day}`}>{fmt.date(day)}</h2>
          <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {variances
              .filter((v) => v.day === day)
              .map((v, i) => (
                <li key={i} style={{ marginBottom: '0.75rem' }} data-kind={v.kind}>
                  <strong>{varianceKindWords(v.kind)}</strong>
                  <VarianceFigures variance={v} />
                  <div className="muted billing-wrap">
                    Found {fmt.dateTime(v.detectedAt)} · reference {v.correlationId}
                  </div>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </>
  );
}

function VarianceFigures({ variance: v }: { variance: Variance }) {
  if (v.kind === 'ledger_mismatch') {
    return (
      <div>
        Ledger {formatDollars(v.ledgerCents)} · bank (FBO) {formatDollars(v.fboCents)} · rail{' '}
        {formatDollars(v.railCents)}
      </div>
    );
  }
  return (
    <div>
      {v.reference ? <>Trace {v.reference} · </> : null}
      Remittance says {v.eraCents === null ? 'nothing' : formatDollars(v.eraCents)} · deposit{' '}
      {v.depositCents === null ? 'none' : formatDollars(v.depositCents)}
    </div>
  );
}
