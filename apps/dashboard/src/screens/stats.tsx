import { useQuery } from '@tanstack/react-query';
import type { Stats } from '@gatehouse/contracts';
import { useState, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { queries } from '../api/queries';
import { Card, PageHeader } from '../components/ui/card';
import { Field, Input, Select } from '../components/ui/field';
import { ErrorMessage, Loading } from '../components/ui/states';
import { csvHref } from '../lib/csv';
import { percent } from '../lib/proportions';
import { formatMoney } from '../lib/format';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const rate = (value: number | null) => (value === null ? '—' : percent(value));

export function StatsScreen() {
  const [from, setFrom] = useState(day(-6));
  const [to, setTo] = useState(day(0));
  const [interval, setInterval] = useState<'day' | 'hour'>('day');
  const range = { from: `${from}T00:00:00.000Z`, to: new Date(new Date(`${to}T00:00:00.000Z`).getTime() + 86_400_000).toISOString(), interval };
  const stats = useQuery({ ...queries.stats(range), enabled: from <= to });

  return (
    <>
      <PageHeader title="Stats" description="Access checks, the paywall funnel and subscriptions over the dates you choose (UTC)." />
      <form className="flex flex-wrap items-end gap-3" onSubmit={(e) => e.preventDefault()}>
        <Field label="From">{(control) => <Input type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} {...control} />}</Field>
        <Field label="To">{(control) => <Input type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} {...control} />}</Field>
        <Field label="Granularity">
          {(control) => (
            <Select value={interval} onChange={(e) => setInterval(e.target.value as 'day' | 'hour')} {...control}>
              <option value="day">by day</option>
              <option value="hour">by hour</option>
            </Select>
          )}
        </Field>
      </form>
      {stats.isPending && <Loading what="stats" />}
      {stats.error && <ErrorMessage error={stats.error} onRetry={() => void stats.refetch()} />}
      {stats.data && <StatsView stats={stats.data} />}
    </>
  );
}

function StatsView({ stats }: { stats: Stats }) {
  const { totals } = stats;
  const label = (start: string) => (stats.interval === 'day' ? start.slice(0, 10) : `${start.slice(0, 10)} ${start.slice(11, 16)}`);
  const series = stats.series.map((b) => ({ ...b, label: label(b.start) }));
  return (
    <div className="space-y-4">
      <section aria-label="Totals" className="grid gap-3 sm:grid-cols-4">
        <Figure name="Checks granted" value={totals.checksGranted} />
        <Figure name="Checks denied" value={totals.checksDenied} />
        <Figure name="Conversion rate" value={rate(totals.conversionRate)} />
        <Figure name="Active subscribers" value={totals.activeSubscribers} />
        <Figure name="Paywall shown" value={totals.shown} />
        <Figure name="Dismissed" value={totals.dismissed} />
        <Figure name="Converted" value={totals.converted} />
        <Figure name="MRR" value={totals.mrr.length === 0 ? '—' : totals.mrr.map((m) => formatMoney(m.amount, m.currency)).join(', ')} />
      </section>

      <ChartCard
        title="Access checks"
        chart={
          <LineChart data={series}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" />
            <YAxis allowDecimals={false} />
            <Tooltip />
            <Legend />
            <Line type="linear" dataKey="checksGranted" name="granted" stroke="#15803d" isAnimationActive={false} />
            <Line type="linear" dataKey="checksDenied" name="denied" stroke="#b91c1c" isAnimationActive={false} />
          </LineChart>
        }
        header={['Period', 'Granted', 'Denied']}
        rows={series.map((b) => [b.label, b.checksGranted, b.checksDenied])}
        file="access-checks.csv"
      />
      <ChartCard
        title="Paywall funnel"
        chart={bars(series, [
          { key: 'shown', name: 'shown', fill: '#6d28d9' },
          { key: 'dismissed', name: 'dismissed', fill: '#94a3b8' },
          { key: 'converted', name: 'converted', fill: '#15803d' },
        ])}
        header={['Period', 'Shown', 'Dismissed', 'Converted', 'Conversion rate']}
        rows={series.map((b) => [b.label, b.shown, b.dismissed, b.converted, rate(b.conversionRate)])}
        file="paywall-funnel.csv"
      />
      <ChartCard
        title="Subscriptions"
        chart={bars(series, [
          { key: 'newSubscriptions', name: 'new', fill: '#15803d' },
          { key: 'cancelledSubscriptions', name: 'cancelled', fill: '#b91c1c' },
        ])}
        header={['Period', 'New', 'Cancelled']}
        rows={series.map((b) => [b.label, b.newSubscriptions, b.cancelledSubscriptions])}
        file="subscriptions.csv"
      />
      <TableCard
        title="Per paywall"
        header={['Paywall', 'Granted', 'Denied', 'Shown', 'Dismissed', 'Converted', 'Conversion rate']}
        rows={stats.paywalls.map((p) => [p.name ?? p.paywallId, p.checksGranted, p.checksDenied, p.shown, p.dismissed, p.converted, rate(p.conversionRate)])}
        file="per-paywall.csv"
      />
      <TableCard
        title="Per experiment variant"
        header={['Experiment', 'Variant', 'Shown', 'Checkouts', 'Checkout rate']}
        rows={stats.variants.map((v) => [v.experimentName ?? v.experimentId, v.variantName ?? v.variantId, v.shown, v.checkouts, rate(v.checkoutRate)])}
        file="per-variant.csv"
      />
    </div>
  );
}

/** A bar chart of the series, one bar per figure and period. */
function bars(series: object[], figures: Array<{ key: string; name: string; fill: string }>) {
  return (
    <BarChart data={series}>
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey="label" />
      <YAxis allowDecimals={false} />
      <Tooltip />
      <Legend />
      {figures.map((figure) => <Bar key={figure.key} dataKey={figure.key} name={figure.name} fill={figure.fill} isAnimationActive={false} />)}
    </BarChart>
  );
}

function Figure({ name, value }: { name: string; value: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3">
      <div className="text-xs uppercase text-slate-600">{name}</div>
      <div className="text-xl font-semibold" aria-label={name}>{value}</div>
    </div>
  );
}

type Row = Array<string | number | null>;

function ChartCard({ title, chart, header, rows, file }: { title: string; chart: ReactNode; header: string[]; rows: Row[]; file: string }) {
  return (
    <TableCard title={title} header={header} rows={rows} file={file}>
      <div className="h-64" role="img" aria-label={`${title} chart; the table below has the same figures`}>
        <ResponsiveContainer width="100%" height="100%">{chart as never}</ResponsiveContainer>
      </div>
    </TableCard>
  );
}

function TableCard({ title, header, rows, file, children }: { title: string; header: string[]; rows: Row[]; file: string; children?: ReactNode }) {
  const id = `stats-${file.replace('.csv', '')}`;
  return (
    <Card aria-labelledby={id} className="space-y-3">
      <div className="flex items-center justify-between">
        <h2 id={id} className="text-base font-semibold">{title}</h2>
        <a className="text-sm font-medium text-brand-strong underline" href={csvHref(header, rows)} download={file}>Download {file}</a>
      </div>
      {children}
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing in this range.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{title}</caption>
          <thead className="bg-slate-50 text-xs uppercase text-slate-600">
            <tr>{header.map((h) => <th key={h} scope="col" className="px-2 py-1">{h}</th>)}</tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i} className="border-t border-slate-100">{row.map((cell, j) => <td key={j} className="px-2 py-1">{cell}</td>)}</tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
