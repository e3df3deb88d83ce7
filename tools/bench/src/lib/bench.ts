import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { createBenchDatabase } from './database';
import { prepare } from './fixtures';
import { benchImport, importLines, IMPORT_SCENARIO } from './import';
import { load, type Measured } from './load';
import { sampleSum, scrape } from './metrics';
import { summariseProfiles } from './profile';
import { startBareFastify, startSpread, startSystem, type Replica } from './processes';
import { CLIENT_ADDRESSES, NO_RULE, scenarios, type Scenario } from './scenarios';

export interface BenchOptions {
  services: boolean;
  /** Two gateways and two access replicas on one NATS, loaded with the no-rule check through one gateway and then both. */
  spread: boolean;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Offered rate of the fixed-rate runs. */
  fixedRate: number;
  databaseUrl?: string;
  natsUrl: string;
  /** Only the scenarios whose name matches this regular expression (`--only=metered`, `--only='no paywall|mixed'`); the import runs only when named (`--only=import`). */
  only?: string;
  /** Rows of the import scenario's generated file. */
  importRows: number;
  /** Profile `npm start` (node --cpu-prof) into this directory and summarise where the time went. */
  profileDir?: string;
}

/** `--name=value` arguments: as given, or as a number of 0 or more (else an error naming the flag). */
export function benchArgs(args: string[]): { value(name: string): string | undefined; number(name: string, fallback: number): number } {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, fallback: number) => {
    const given = value(name);
    if (given === undefined) return fallback;
    const parsed = Number(given);
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} must be a number, 0 or more`);
    return parsed;
  };
  return { value, number };
}

export function parseBenchArgs(args: string[]): BenchOptions {
  const { value, number } = benchArgs(args);
  const overNats = args.includes('--services') || args.includes('--spread');
  return {
    services: args.includes('--services'),
    spread: args.includes('--spread'),
    durationSeconds: number('duration', 10),
    warmupSeconds: number('warmup', 2),
    connections: number('connections', 32),
    fixedRate: number('rate', 2000),
    databaseUrl: value('database-url') ?? (overNats ? 'postgres://postgres@127.0.0.1:5432/postgres' : undefined),
    natsUrl: natsUrlOf(value('nats-url')),
    only: value('only'),
    importRows: number('rows', 100_000),
    profileDir: value('profile'),
  };
}

/** The NATS server the systems use: `--nats-url`, else NATS_URL, else the local one. */
export const natsUrlOf = (given: string | undefined): string => given ?? process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';

interface Row {
  scenario: Scenario;
  /** As fast as answered; absent for a scenario measured only at a fixed rate. */
  measured?: Measured;
  fixedRate?: Measured;
  /** Each replica's part of the measured run (the spread run). */
  shares?: Share[];
}

/** Starts bare Fastify and the system, prepares the fixtures, runs every scenario and answers the tables. */
export async function runBench(options: BenchOptions): Promise<string> {
  const namespace = `bench_${randomBytes(4).toString('hex')}`;
  const database = options.databaseUrl ? await createBenchDatabase(options.databaseUrl) : undefined;
  const stops: Array<() => Promise<void>> = [];
  let result = '';
  try {
    const bare = await startBareFastify();
    stops.push(bare.stop);
    if (options.spread) {
      const system = await startSpread({ databaseUrl: database?.url, natsUrl: options.natsUrl, namespace, replicas: 2 });
      stops.push(system.stop);
      result = await runSpread(bare.url, system.replicas, options);
    } else {
      const system = await startSystem({ services: options.services, databaseUrl: database?.url, natsUrl: options.natsUrl, namespace, profileDir: options.profileDir });
      stops.push(system.stop);
      await everyServiceUp(system.url);
      const fixtures = await prepare(system.url);
      const rssBefore = system.rssMiB();
      const nodeBefore = system.nodeMiB();
      const only = options.only === undefined ? undefined : new RegExp(options.only);
      const all = scenarios(fixtures);
      const chosen = all.filter((scenario) => !scenario.baseline && (!only || only.test(scenario.name)));
      const rows: Row[] = [];
      // Bare Fastify runs with any load scenario, as the measure of its share.
      for (const scenario of chosen.length > 0 ? all.filter((each) => each.baseline || chosen.includes(each)) : []) {
        rows.push(await measure(scenario.baseline ? bare.url : system.url, scenario, options));
      }
      const imported = only?.test(IMPORT_SCENARIO) ? await benchImport(system, fixtures, options.importRows) : undefined;
      const systemFigures = { coldStartMs: system.coldStartMs, rssBefore, rssAfter: system.rssMiB(), nodeBefore, nodeAfter: system.nodeMiB() };
      result = [
        `mode: ${options.services ? 'npm run start:services (separate processes over NATS)' : 'npm start (one process)'}${rows.length > 0 ? `, ${options.connections} connections, ${options.durationSeconds} s per run, ${CLIENT_ADDRESSES}` : ''}`,
        '',
        ...(rows.length > 0 ? [resultsTable(rows), '', fixedRateTable(rows, options), ''] : []),
        ...(imported ? [importLines(imported), ''] : []),
        systemLines(options, systemFigures),
      ].join('\n');
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.error(`stopping: ${String(err)}`));
    await database?.drop().catch((err: unknown) => console.error(`dropping the bench database: ${String(err)}`));
    if (options.services || options.spread) await deleteStream(options.natsUrl, namespace);
  }
  return options.profileDir ? `${result}\n\n${summariseProfiles(options.profileDir)}` : result;
}

/** The no-rule check through the first gateway alone, then through both: throughput, and each replica's part of it. */
async function runSpread(bareUrl: string, replicas: Replica[], options: BenchOptions): Promise<string> {
  const gateways = replicas.flatMap((replica) => (replica.url ? [replica.url] : []));
  await everyServiceUp(gateways[0]);
  const all = scenarios(await prepare(gateways[0]));
  const baseline = all.find((scenario) => scenario.baseline) as Scenario;
  const noRule = { ...(all.find((scenario) => scenario.name === NO_RULE) as Scenario), atFixedRate: undefined };
  const rows = [
    await measure(bareUrl, baseline, options),
    await measure(gateways[0], { ...noRule, name: `${NO_RULE}, gateway 1 only` }, options, replicas),
    await measure(gateways, { ...noRule, name: `${NO_RULE}, ${gateways.length} gateways` }, options, replicas),
  ];
  const [one, both] = [rows[1], rows[2]];
  return [
    `mode: ${gateways.length} gateways and ${replicas.length - gateways.length} access replicas on one NATS (the other five services once each), ${options.connections} connections, ${options.durationSeconds} s per run, ${CLIENT_ADDRESSES}`,
    '',
    resultsTable(rows),
    '',
    `${gateways.length} gateways answered ${fmt(((both.measured?.rps ?? Number.NaN) / (one.measured?.rps ?? Number.NaN)) * 100, 1)} % of one gateway's req/s`,
    '',
    sharesTable([one, both]),
  ].join('\n');
}

async function measure(url: string | string[], scenario: Scenario, options: BenchOptions, replicas: Replica[] = []): Promise<Row> {
  const base = { connections: options.connections };
  const fixedOnly = scenario.atFixedRate === 'only';
  if (options.warmupSeconds > 0) await load(url, scenario, { ...base, durationSeconds: options.warmupSeconds, rate: fixedOnly ? options.fixedRate : undefined });
  const before = await Promise.all(replicas.map((replica) => scrape(replica.metricsUrl)));
  const measured = fixedOnly ? undefined : await load(url, scenario, { ...base, durationSeconds: options.durationSeconds });
  const after = await Promise.all(replicas.map((replica) => scrape(replica.metricsUrl)));
  const fixedRate = scenario.atFixedRate ? await load(url, scenario, { ...base, durationSeconds: options.durationSeconds, rate: options.fixedRate }) : undefined;
  return { scenario, measured, fixedRate, shares: replicas.length ? sharesOf(replicas, before, after) : undefined };
}

interface Share {
  replica: Replica;
  /** What the replica did during the run, in the unit of `HANDLED[replica.service]`. */
  handled: number;
  /** Percent of what its service's replicas did together. */
  percent: number;
}

/**
 * What tells a replica's part from its /metrics: a gateway counts the checks it answered; an
 * access replica has no counter of the requests it handled, so its CPU time stands for them.
 */
const HANDLED: Record<Replica['service'], { series: string; labels: Record<string, string>; unit: string }> = {
  gateway: { series: 'gatehouse_http_request_duration_seconds_count', labels: { route_class: 'access-check' }, unit: 'checks answered' },
  access: { series: 'gatehouse_process_cpu_seconds_total', labels: {}, unit: 'CPU time' },
};

function sharesOf(replicas: Replica[], before: string[], after: string[]): Share[] {
  const handled = replicas.map(({ service }, i) => {
    const { series, labels } = HANDLED[service];
    return sampleSum(after[i], series, labels) - sampleSum(before[i], series, labels);
  });
  const totals = new Map<string, number>();
  replicas.forEach(({ service }, i) => totals.set(service, (totals.get(service) ?? 0) + handled[i]));
  return replicas.map((replica, i) => ({ replica, handled: handled[i], percent: (handled[i] / (totals.get(replica.service) as number)) * 100 }));
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function resultsTable(rows: Row[]): string {
  const baseline = rows.find((row) => row.scenario.baseline)?.measured?.rps ?? Number.NaN;
  return [
    '| scenario | req/s | p50 ms | p99 ms | non-2xx | errors | share of bare Fastify |',
    '|---|---|---|---|---|---|---|',
    ...rows.flatMap(({ scenario, measured }) => {
      if (!measured) return [];
      const events = scenario.eventsPerRequest ? ` (${fmt(measured.rps * scenario.eventsPerRequest)} events/s)` : '';
      return [`| ${scenario.name} | ${fmt(measured.rps)}${events} | ${fmt(measured.p50, 1)} | ${fmt(measured.p99, 1)} | ${measured.non2xx} | ${measured.errors} | ${fmt((measured.rps / baseline) * 100, 1)} % |`];
    }),
  ].join('\n');
}

function fixedRateTable(rows: Row[], options: BenchOptions): string {
  return [
    `at ${options.fixedRate} req/s offered:`,
    '',
    '| scenario | req/s answered | p50 ms | p99 ms | non-2xx | errors |',
    '|---|---|---|---|---|---|',
    ...rows.flatMap(({ scenario, fixedRate: at }) => (at ? [`| ${scenario.name} | ${fmt(at.rps)} | ${fmt(at.p50, 1)} | ${fmt(at.p99, 1)} | ${at.non2xx} | ${at.errors} |`] : [])),
  ].join('\n');
}

function sharesTable(rows: Row[]): string {
  const replicas = rows[0].shares?.map((share) => share.replica) ?? [];
  return [
    `| replica | part of the run measured by | ${rows.map((row) => row.scenario.name).join(' | ')} |`,
    `|---|---|${rows.map(() => '---|').join('')}`,
    ...replicas.map((replica, i) => `| ${replica.name} | ${HANDLED[replica.service].unit} | ${rows.map((row) => `${fmt(row.shares?.[i].percent ?? Number.NaN, 1)} %`).join(' | ')} |`),
  ].join('\n');
}

function systemLines(options: BenchOptions, system: { coldStartMs: number; rssBefore: number; rssAfter: number; nodeBefore: number; nodeAfter: number }): string {
  return [
    `cold start to /docs 200: ${fmt(system.coldStartMs / 1000, 1)} s${options.databaseUrl ? ' (external PostgreSQL)' : ' (fresh data directory, embedded PostgreSQL)'}`,
    `system memory, PSS${options.databaseUrl ? ' (PostgreSQL not included: external)' : ' (embedded PostgreSQL included)'}: ${fmt(system.rssBefore)} MiB before the runs, ${fmt(system.rssAfter)} MiB after (Node.js processes: ${fmt(system.nodeBefore)} and ${fmt(system.nodeAfter)} MiB)`,
  ].join('\n');
}

/** Separate processes come up one by one: the gateway may answer /docs before the others answer the bus. */
async function everyServiceUp(url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`${url}/api/v1/health`).then((res) => res.ok, () => false))) {
    if (Date.now() > deadline) throw new Error(`${url}/api/v1/health did not answer 200 within 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function deleteStream(natsUrl: string, namespace: string): Promise<void> {
  const nc = await connect({ servers: natsUrl.split(',') });
  try {
    await (await nc.jetstreamManager()).streams.delete(`${namespace}_events`).catch(() => undefined);
  } finally {
    await nc.close();
  }
}
