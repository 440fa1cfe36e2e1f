'use client';
// Variances grouped by day. A day-level variance shows the ledger, FBO and rail totals; a remittance/deposit
// variance shows the trace and what each side said; an unmatched claim payment names the claim id, why it posted
// nowhere and its remittance. An ERA or a deposit still waiting for its pair is listed under its day as "Waiting for
// the deposit" (or the remittance), never as reconciled (DECISIONS "Money in", ruled 2026-11-28).
import Link from 'next/link';
import type { z } from 'zod';
import type { VarianceList } from '@/lib/reconciliation/list-variances';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { useApiRead } from '@/components/billing/use-api-read';
import { CsvLink } from '@/components/csv-link';
import { varianceKindWords } from '@/components/billing/words';
import { ErrorNote } from '@/components/error-note';

type Variance = z.infer<typeof VarianceList>['variances'][number];

export function VariancesScreen() {
  const fmt = useDateFormat();
  const { data, error } = useApiRead<z.infer<typeof VarianceList>>('/api/reconciliation/variances');
  const variances = data?.variances ?? null;
  const waiting = data?.waiting ?? [];

  if (error) return <ErrorNote error={error} />;
  if (variances === null) return <p role="status">Loading…</p>;
  if (!variances.length && !waiting.length) {
    return (
      <p className="card">
        No variances: every remittance has its deposit, every deposit its remittance, and the reconciled days&apos;
        ledger and bank totals agree.
      </p>
    );
  }

  const days = [...new Set([...variances.map((v) => v.day), ...waiting.map((w) => w.day)])].sort().reverse();
  return (
    <>
      <CsvLink apiPath="/api/reconciliation/variances" what="the variances" />
      {!variances.length ? (
        <p className="card">No variances yet, but not everything is reconciled: some days are waiting (below).</p>
      ) : null}
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
            {waiting
              .filter((w) => w.day === day)
              .map((w) => (
                <li
                  key={`waiting-${w.reference}`}
                  style={{ marginBottom: '0.75rem' }}
                  data-kind={`waiting_for_${w.waitingFor}`}
                >
                  <strong>{w.words}</strong>
                  <div className="billing-wrap">
                    Trace {w.reference} ·{' '}
                    {w.waitingFor === 'deposit'
                      ? `remittance says ${formatDollars(w.eraCents ?? 0)}, no deposit yet`
                      : `deposit of ${formatDollars(w.depositCents ?? 0)}, no remittance yet`}
                  </div>
                  <div className="muted">A variance if it has not arrived by {fmt.date(w.varianceFrom)}</div>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </>
  );
}

function VarianceFigures({ variance: v }: { variance: Variance }) {
  if (v.kind === 'unmatched_claim') {
    return (
      <div className="billing-wrap">
        Claim {v.claimId} · {formatDollars(v.eraCents ?? 0)} paid, posted nowhere: {v.note ?? 'no sent claim matches'}
        {v.remittanceId ? (
          <>
            {' '}
            · <Link href={`/remittances/${encodeURIComponent(v.remittanceId)}`}>trace {v.reference}</Link>
          </>
        ) : null}
      </div>
    );
  }
  if (v.kind === 'ledger_mismatch') {
    return (
      <div>
        Ledger {formatDollars(v.ledgerCents)} · bank (FBO) {formatDollars(v.fboCents)} · rail{' '}
        {formatDollars(v.railCents)}
      </div>
    );
  }
  return (
    <div className="billing-wrap">
      {v.reference ? <>Trace {v.reference} · </> : null}
      Remittance says {v.eraCents === null ? 'nothing' : formatDollars(v.eraCents)} · deposit{' '}
      {v.depositCents === null ? 'none' : formatDollars(v.depositCents)}
    </div>
  );
}
