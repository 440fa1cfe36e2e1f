'use client';
// Variances grouped by day. A day-level variance shows the ledger, FBO and rail totals; a remittance/deposit
// variance shows the trace and what each side said.
import type { z } from 'zod';
import type { VarianceList } from '@/lib/reconciliation/list-variances';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { useApiRead } from '@/components/billing/use-api-read';
import { varianceKindWords } from '@/components/billing/words';

type Variance = z.infer<typeof VarianceList>['variances'][number];

export function VariancesScreen() {
  const fmt = useDateFormat();
  const { data, error } = useApiRead<{ variances: Variance[] }>('/api/reconciliation/variances');
  const variances = data?.variances ?? null;

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
