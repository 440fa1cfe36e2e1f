'use client';
// The revenue dashboard: the headline numbers, then one panel per /api/dashboard read (aging, collections,
// denials, clean claims), each a chart with its numbers as a table and a CSV download of the same figures.
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ArAging } from '@/lib/dashboard/read-ar-aging';
import type { CleanClaimRate } from '@/lib/dashboard/read-clean-claim-rate';
import type { Collections } from '@/lib/dashboard/read-collections';
import type { DaysInAr } from '@/lib/dashboard/read-days-in-ar';
import type { DenialRate } from '@/lib/dashboard/read-denial-rate';
import { formatDollars } from '@/components/billing/format';
import { useApiRead } from '@/components/billing/use-api-read';
import { useDateFormat } from '@/components/billing/use-date-format';
import { ChartPanel } from '@/components/chart/chart-panel';
import { ErrorNote } from '@/components/error-note';

const COLORS = { payer: '#0b5cad', patient: '#1a7f37', bar: '#0b5cad', bad: '#b42318' };
const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)} %`);
const shortDollars = (cents: number) =>
  Math.abs(cents) >= 100_000_00 ? `$${Math.round(cents / 100_000_0) / 10}M` : `$${Math.round(cents / 100_00) / 10}k`;
const CHART_HEIGHT = 240;
// A week's Monday under its bar, without the year ("Sep 21"): the table below the chart gives the whole date.
const WEEK_TICK = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });
const weekTick = (day: string) => WEEK_TICK.format(new Date(`${day}T00:00:00Z`));

export function DashboardScreen() {
  const aging = useApiRead<ArAging>('/api/dashboard/ar-aging');
  const days = useApiRead<DaysInAr>('/api/dashboard/days-in-ar');
  const collections = useApiRead<Collections>('/api/dashboard/collections');
  const denials = useApiRead<DenialRate>('/api/dashboard/denials');
  const clean = useApiRead<CleanClaimRate>('/api/dashboard/clean-claims');
  const error = aging.error ?? days.error ?? collections.error ?? denials.error ?? clean.error;
  if (error) return <ErrorNote error={error} />;
  if (!aging.data || !days.data || !collections.data || !denials.data || !clean.data)
    return <p role="status">Loading…</p>;
  return (
    <>
      <HeadlineNumbers
        days={days.data}
        collections={collections.data}
        denials={denials.data}
        clean={clean.data}
        aging={aging.data}
      />
      <div className="dashboard-grid">
        <AgingPanel aging={aging.data} />
        <CollectionsPanel collections={collections.data} />
        <DenialsPanel denials={denials.data} />
        <CleanClaimsPanel clean={clean.data} days={days.data} />
      </div>
    </>
  );
}

function HeadlineNumbers(props: {
  days: DaysInAr;
  collections: Collections;
  denials: DenialRate;
  clean: CleanClaimRate;
  aging: ArAging;
}) {
  const figures = [
    ['Days in A/R', props.days.daysInAr === null ? '—' : props.days.daysInAr.toFixed(1), 'days-in-ar'],
    ['Open A/R', formatDollars(props.aging.totals.totalCents), 'open-ar'],
    ['Collected, last 90 days', formatDollars(props.collections.totalCents), 'collected'],
    ['Denial rate', percent(props.denials.denialRate), 'denial-rate'],
    ['Clean-claim rate', percent(props.clean.cleanClaimRate), 'clean-claim-rate'],
  ] as const;
  return (
    <dl className="kpi-row">
      {figures.map(([label, value, id]) => (
        <div key={id} className="card kpi" data-testid={`kpi-${id}`}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function AgingPanel({ aging }: { aging: ArAging }) {
  const { date } = useDateFormat();
  const t = aging.totals;
  const buckets = [
    { bucket: '0–30', cents: t.days0to30Cents },
    { bucket: '31–60', cents: t.days31to60Cents },
    { bucket: '61–90', cents: t.days61to90Cents },
    { bucket: '91–120', cents: t.days91to120Cents },
    { bucket: '120+', cents: t.over120Cents },
  ];
  const rows = [...aging.payers, { ...t, payerId: 'total', payerName: 'All payers' }];
  return (
    <ChartPanel
      id="ar-aging"
      wide
      title="Accounts receivable aging"
      description={<>Open balances by days since the date of service, as of {date(aging.asOf)}.</>}
      csvHref="/api/dashboard/ar-aging?format=csv"
      caption="Open balance by payer and age in days"
      chart={
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <BarChart data={buckets} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="bucket" />
            <YAxis tickFormatter={shortDollars} width={56} />
            <Tooltip formatter={(value) => formatDollars(Number(value))} />
            <Bar dataKey="cents" name="Open balance" fill={COLORS.bar} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      }
      rows={rows}
      rowKey={(r) => r.payerId ?? 'none'}
      columns={[
        { label: 'Payer', value: (r) => r.payerName },
        { label: '0–30', value: (r) => formatDollars(r.days0to30Cents), numeric: true },
        { label: '31–60', value: (r) => formatDollars(r.days31to60Cents), numeric: true },
        { label: '61–90', value: (r) => formatDollars(r.days61to90Cents), numeric: true },
        { label: '91–120', value: (r) => formatDollars(r.days91to120Cents), numeric: true },
        { label: '120+', value: (r) => formatDollars(r.over120Cents), numeric: true },
        { label: 'Total', value: (r) => formatDollars(r.totalCents), numeric: true },
      ]}
    />
  );
}

function CollectionsPanel({ collections }: { collections: Collections }) {
  const { date } = useDateFormat();
  return (
    <ChartPanel
      id="collections"
      title="Collections per week"
      description={
        <>
          Payers’ 835 payments and patients’ payments, {date(collections.from)} to {date(collections.to)}.
        </>
      }
      csvHref={`/api/dashboard/collections?format=csv&from=${collections.from}&to=${collections.to}`}
      caption="Money collected per week, starting Monday"
      chart={
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <BarChart data={collections.weeks} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="weekStart" tickFormatter={weekTick} />
            <YAxis tickFormatter={shortDollars} width={56} />
            <Tooltip formatter={(value) => formatDollars(Number(value))} />
            <Legend />
            <Bar dataKey="payerCents" name="Payers" stackId="c" fill={COLORS.payer} isAnimationActive={false} />
            <Bar dataKey="patientCents" name="Patients" stackId="c" fill={COLORS.patient} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      }
      rows={collections.weeks}
      rowKey={(w) => w.weekStart}
      columns={[
        { label: 'Week of', value: (w) => date(w.weekStart) },
        { label: 'Payers', value: (w) => formatDollars(w.payerCents), numeric: true },
        { label: 'Patients', value: (w) => formatDollars(w.patientCents), numeric: true },
        { label: 'Total', value: (w) => formatDollars(w.totalCents), numeric: true },
      ]}
    />
  );
}

function DenialsPanel({ denials }: { denials: DenialRate }) {
  return (
    <ChartPanel
      id="denials"
      title="Top denial reasons"
      description={
        <>
          Denial rate {percent(denials.denialRate)}: {denials.deniedInFull} of {denials.claimsWithFirstRemittance}{' '}
          claims denied in full by their first 835. <a href="/denials">Work the denials</a>
        </>
      }
      csvHref={`/api/dashboard/denials?format=csv&from=${denials.from}&to=${denials.to}`}
      caption="Reasons payers gave for claims denied in full"
      chart={
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <BarChart
            data={denials.topReasons.map((r) => ({ code: `${r.group}-${r.reason}`, claims: r.claims }))}
            layout="vertical"
            accessibilityLayer={false}
          >
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" allowDecimals={false} />
            <YAxis type="category" dataKey="code" width={64} />
            <Tooltip />
            <Bar dataKey="claims" name="Claims" fill={COLORS.bad} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      }
      rows={denials.topReasons}
      rowKey={(r) => `${r.group}-${r.reason}`}
      columns={[
        { label: 'Code', value: (r) => `${r.group}-${r.reason}`, whole: true },
        { label: 'Reason', value: (r) => r.description },
        { label: 'Claims', value: (r) => r.claims, numeric: true },
        { label: 'Amount', value: (r) => formatDollars(r.amountCents), numeric: true },
      ]}
    />
  );
}

function CleanClaimsPanel({ clean, days }: { clean: CleanClaimRate; days: DaysInAr }) {
  const { date } = useDateFormat();
  const rows = [
    // `tick`: the bar's name under the chart, short enough to sit under its bar.
    { label: 'Accepted on the first submission', tick: 'Accepted', claims: clean.cleanOnFirstPass },
    {
      label: 'Rejected, resent or still waiting',
      tick: 'Rejected or waiting',
      claims: clean.submitted - clean.cleanOnFirstPass,
    },
  ];
  return (
    <ChartPanel
      id="clean-claims"
      title="First-pass clean claims"
      description={
        <>
          Clean-claim rate {percent(clean.cleanClaimRate)} of {clean.submitted} claims first sent {date(clean.from)} to{' '}
          {date(clean.to)}. Days in A/R: {days.daysInAr ?? '—'} ({formatDollars(days.openArCents)} open over{' '}
          {formatDollars(days.charges90DaysCents)} charged in 90 days).
        </>
      }
      csvHref={`/api/dashboard/clean-claims?format=csv&from=${clean.from}&to=${clean.to}`}
      caption="Claims first submitted in the period"
      chart={
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <BarChart data={rows} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="tick" />
            <YAxis allowDecimals={false} width={40} />
            <Tooltip />
            <Bar dataKey="claims" name="Claims" fill={COLORS.bar} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      }
      rows={rows}
      rowKey={(r) => r.label}
      columns={[
        { label: 'Claims', value: (r) => r.label },
        { label: 'Count', value: (r) => r.claims, numeric: true },
      ]}
    />
  );
}
