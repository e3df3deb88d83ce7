import { useQuery } from '@tanstack/react-query';
import type { Stats } from '@gatehouse/contracts';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { ChartFigure } from './stats-charts';
import { queries } from '../api/queries';
import { Card, PageHeader, Table } from '../components/ui/card';
import { Field, Input, Select } from '../components/ui/field';
import { Empty, ErrorMessage, Loading } from '../components/ui/states';
import { csvHref } from '../lib/csv';
import { percent } from '../lib/proportions';
import { formatMoney } from '../lib/format';

const TrendChart = lazy(() => import('./stats-charts').then((charts) => ({ default: charts.TrendChart })));

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

/** Whether any bucket has one of these figures above zero: a chart of nothing but zeros says nothing. */
const anyOf = (series: Stats['series'], figures: Array<keyof Stats['series'][number]>) => series.some((bucket) => figures.some((figure) => Number(bucket[figure]) > 0));

function StatsView({ stats }: { stats: Stats }) {
  const { totals } = stats;
  const label = (start: string) => (stats.interval === 'day' ? start.slice(0, 10) : `${start.slice(0, 10)} ${start.slice(11, 16)}`);
  const series = stats.series.map((b) => ({ ...b, label: label(b.start) }));
  const checks = anyOf(stats.series, ['checksGranted', 'checksDenied']);
  const funnel = anyOf(stats.series, ['shown', 'dismissed', 'converted']);
  const subscriptions = anyOf(stats.series, ['newSubscriptions', 'cancelledSubscriptions']);
  if (!checks && !funnel && !subscriptions && totals.activeSubscribers === 0) {
    return (
      <Empty title="No data in this range yet">
        Figures appear once your pages ask for access with your publishable key (the Home screen shows whether the snippet is in place), readers meet your paywalls and
        someone subscribes. Try a longer range if you expected some.
      </Empty>
    );
  }
  return (
    <div className="space-y-4">
      <section aria-label="Totals" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure name="Checks granted" value={totals.checksGranted} />
        <Figure name="Checks denied" value={totals.checksDenied} />
        <Figure name="Conversion rate" value={rate(totals.conversionRate)} />
        <Figure name="Active subscribers" value={totals.activeSubscribers} />
        <Figure name="Paywall shown" value={totals.shown} />
        <Figure name="Dismissed" value={totals.dismissed} />
        <Figure name="Converted" value={totals.converted} />
        <Figure
          name="MRR"
          value={totals.mrr.length === 0 ? '—' : totals.mrr.map((m) => formatMoney(m.amount, m.currency)).join(', ')}
          note={
            totals.mrr.length === 0 && totals.activeSubscribers > 0
              ? `None yet: your ${totals.activeSubscribers} active subscriber${totals.activeSubscribers === 1 ? ' is' : 's are'} in a free trial or granted by staff, which bring no recurring revenue until they pay.`
              : 'Monthly recurring revenue of paying subscriptions; trials and staff grants count once they pay.'
          }
        />
      </section>

      <ChartCard
        title="Access checks"
        series={series}
        kind="line"
        figures={[
          { key: 'checksGranted', name: 'granted', colour: '#15803d' },
          { key: 'checksDenied', name: 'denied', colour: '#b91c1c' },
        ]}
        header={['Period', 'Granted', 'Denied']}
        rows={series.map((b) => [b.label, b.checksGranted, b.checksDenied])}
        file="access-checks.csv"
        empty={checks ? null : 'No access checks in this range yet.'}
      />
      <ChartCard
        title="Paywall funnel"
        series={series}
        kind="bars"
        figures={[
          { key: 'shown', name: 'shown', colour: '#6d28d9' },
          { key: 'dismissed', name: 'dismissed', colour: '#94a3b8' },
          { key: 'converted', name: 'converted', colour: '#15803d' },
        ]}
        header={['Period', 'Shown', 'Dismissed', 'Converted', 'Conversion rate']}
        rows={series.map((b) => [b.label, b.shown, b.dismissed, b.converted, rate(b.conversionRate)])}
        file="paywall-funnel.csv"
        empty={funnel ? null : 'No paywall was shown in this range yet.'}
      />
      <ChartCard
        title="Subscriptions"
        series={series}
        kind="bars"
        figures={[
          { key: 'newSubscriptions', name: 'new', colour: '#15803d' },
          { key: 'cancelledSubscriptions', name: 'cancelled', colour: '#b91c1c' },
        ]}
        header={['Period', 'New', 'Cancelled']}
        rows={series.map((b) => [b.label, b.newSubscriptions, b.cancelledSubscriptions])}
        file="subscriptions.csv"
        empty={subscriptions ? null : 'No subscription started or ended in this range.'}
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
      <TableCard title="Per offer" header={['Offer code', 'Redemptions']} rows={stats.offers.map((o) => [o.code, o.redemptions])} file="per-offer.csv" />
      <TableCard title="One-time purchases" header={['Passes', 'Single articles']} rows={[[stats.purchases.passes, stats.purchases.singleArticles]]} file="one-time-purchases.csv" />
      <TableCard
        title="Shared articles"
        header={['Links shared', 'Reads opened', 'Conversions']}
        rows={[[stats.sharing.linksCreated, stats.sharing.opens, stats.sharing.conversions]]}
        file="shared-articles.csv"
      />
      <TableCard
        title="Cancellation reasons"
        header={['Reason', 'Cancellations', 'Kept by the save offer']}
        rows={stats.cancellation.reasons.map((r) => [r.reason, r.cancellations, r.saved])}
        file="cancellation-reasons.csv"
      />
      <TableCard title="Save offers" header={['Kind', 'Offered', 'Accepted']} rows={stats.cancellation.saves.map((s) => [s.kind, s.offered, s.accepted])} file="save-offers.csv" />
      <TableCard
        title="Win-back"
        header={['Emails sent', 'Conversions']}
        rows={[[stats.cancellation.winBack.sent, stats.cancellation.winBack.conversions]]}
        file="win-back.csv"
      />
      <TableCard title="Gifts" header={['Gifts bought', 'Gifts redeemed']} rows={[[stats.gifts.purchased, stats.gifts.redeemed]]} file="gifts.csv" />
    </div>
  );
}

function Figure({ name, value, note }: { name: string; value: ReactNode; note?: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-200 bg-white p-3">
      <div className="text-xs uppercase text-slate-600">{name}</div>
      <div className="break-words text-xl font-semibold" aria-label={name}>{value}</div>
      {note && <p className="mt-1 text-xs text-slate-600">{note}</p>}
    </div>
  );
}

type Row = Array<string | number | null>;

function ChartCard({
  title,
  series,
  kind,
  figures,
  header,
  rows,
  file,
  empty,
}: {
  title: string;
  series: object[];
  kind: 'line' | 'bars';
  figures: ChartFigure[];
  header: string[];
  rows: Row[];
  file: string;
  empty: string | null;
}) {
  return (
    <TableCard title={title} header={header} rows={rows} file={file}>
      {empty ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <div className="h-64" role="img" aria-label={`${title} chart; the table below has the same figures`}>
          <Suspense fallback={<Loading what="the chart" />}>
            <TrendChart series={series} kind={kind} figures={figures} />
          </Suspense>
        </div>
      )}
    </TableCard>
  );
}

function TableCard({ title, header, rows, file, children }: { title: string; header: string[]; rows: Row[]; file: string; children?: ReactNode }) {
  const id = `stats-${file.replace('.csv', '')}`;
  return (
    <Card aria-labelledby={id} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-base font-semibold">{title}</h2>
        <a className="text-sm font-medium text-brand-strong underline" href={csvHref(header, rows)} download={file}>Download {file}</a>
      </div>
      {children}
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing in this range.</p>
      ) : (
        <Table>
          <caption className="sr-only">{title}</caption>
          <thead className="bg-slate-50 text-xs uppercase text-slate-600">
            <tr>{header.map((h) => <th key={h} scope="col" className="px-2 py-1">{h}</th>)}</tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i} className="border-t border-slate-100">{row.map((cell, j) => <td key={j} className="px-2 py-1">{cell}</td>)}</tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}
