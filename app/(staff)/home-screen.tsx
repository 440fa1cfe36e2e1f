'use client';
// The home screen's work, from GET /api/home: one card per section the user's scopes open, each count a link to
// the list it counts. The API leaves out a section the user cannot open, so nothing here checks scopes itself.
import Link from 'next/link';
import type { ReactNode } from 'react';
import type { HomeSummary } from '@/lib/home/read-home';
import { useApiRead } from '@/components/billing/use-api-read';
import { CLAIM_STATUSES, claimStatusWords, nextActionWords } from '@/components/billing/words';
import { ErrorNote } from '@/components/error-note';

function CountLink(props: { href: string; count: number; children: ReactNode; testId: string }) {
  return (
    <li>
      <Link href={props.href} data-testid={props.testId} className="count-link">
        <span className="count">{props.count}</span> <span className="count-words">{props.children}</span>
      </Link>
    </li>
  );
}

function WorkCard(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card work-card" aria-labelledby={`${props.id}-title`} data-testid={`home-${props.id}`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      <ul className="count-list">{props.children}</ul>
    </section>
  );
}

export function HomeScreen({ canSeeDashboard }: { canSeeDashboard: boolean }) {
  const { data, error } = useApiRead<HomeSummary>('/api/home');
  if (error) return <ErrorNote error={error} />;
  if (!data) return <p role="status">Loading…</p>;
  const { frontDesk, claims, money, admin, integrations } = data;
  const byStatus = new Map(claims?.byStatus.map((s) => [s.status, s.count]));
  return (
    <div className="home-grid">
      {canSeeDashboard ? (
        <p className="card">
          <Link href="/dashboard">Revenue dashboard</Link>: aging, collections, denial and clean-claim rates, days in
          A/R.
        </p>
      ) : null}
      {frontDesk ? (
        <WorkCard id="front-desk" title={`Today’s schedule (${frontDesk.date})`}>
          <CountLink href="/eligibility/roster" count={frontDesk.appointments} testId="count-appointments">
            appointments today
          </CountLink>
          <CountLink href="/eligibility/roster" count={frontDesk.needsAttention} testId="count-needs-attention">
            need attention: {frontDesk.inactive} inactive, {frontDesk.unknown} unknown, {frontDesk.priorAuth} prior
            authorization, {frontDesk.outOfNetwork} out of network
          </CountLink>
          <CountLink href="/eligibility/roster" count={frontDesk.notChecked} testId="count-not-checked">
            not checked yet
          </CountLink>
          <CountLink href="/eligibility/roster" count={frontDesk.preVerificationChanges} testId="count-preverification">
            changed in last night’s pre-verification
          </CountLink>
        </WorkCard>
      ) : null}
      {claims ? (
        <WorkCard id="claims" title="Claims by state">
          {CLAIM_STATUSES.filter((s) => byStatus.has(s)).map((status) => (
            <CountLink
              key={status}
              href={`/claims?status=${status}`}
              count={byStatus.get(status) ?? 0}
              testId={`count-claims-${status}`}
            >
              {claimStatusWords(status).toLowerCase()}
            </CountLink>
          ))}
          {byStatus.size === 0 ? <li>No claims yet.</li> : null}
        </WorkCard>
      ) : null}
      {claims ? (
        <WorkCard id="denials" title="Denials to work, by next action">
          {claims.denialsByNextAction.map((d, i) => (
            <CountLink
              key={d.nextAction}
              href={`/denials?nextAction=${d.nextAction}`}
              count={d.count}
              testId={`count-denials-${i}`}
            >
              {nextActionWords(d.nextAction)}
            </CountLink>
          ))}
          {claims.denialsByNextAction.length === 0 ? <li>No denials to work.</li> : null}
        </WorkCard>
      ) : null}
      {money ? (
        <WorkCard id="money" title="Money in and out">
          <CountLink href="/reconciliation" count={money.erasWaitingForDeposit} testId="count-eras-waiting">
            835s waiting for their deposit
          </CountLink>
          <CountLink href="/reconciliation" count={money.unpostedClaimPayments} testId="count-unposted">
            835 claim payments that posted nowhere
          </CountLink>
          <CountLink href="/reconciliation" count={money.unmatchedDeposits} testId="count-unmatched-deposits">
            deposits no 835 explains
          </CountLink>
          <CountLink href="/settlement" count={money.payoutsWaiting} testId="count-payouts-waiting">
            payouts waiting
          </CountLink>
        </WorkCard>
      ) : null}
      {admin ? (
        <WorkCard id="admin" title="Administration">
          <CountLink href="/admin/users" count={admin.lockedUsers} testId="count-locked-users">
            locked users
          </CountLink>
          <CountLink href="/settings/background" count={admin.failedJobs} testId="count-failed-jobs">
            failed background jobs
          </CountLink>
        </WorkCard>
      ) : null}
      {integrations ? (
        <WorkCard id="integrations" title="Integrations">
          <CountLink href="/settings/integrations" count={integrations.needingAttention} testId="count-integrations">
            EMR connections needing attention
          </CountLink>
        </WorkCard>
      ) : null}
    </div>
  );
}
