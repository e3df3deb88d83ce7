import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { createBenchDatabase } from './database';
import { prepare } from './fixtures';
import { load, type Measured } from './load';
import { summariseProfiles } from './profile';
import { startBareFastify, startSystem, type Started } from './processes';
import { scenarios, type Scenario } from './scenarios';

export interface BenchOptions {
  services: boolean;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Offered rate of the fixed-rate runs. */
  fixedRate: number;
  databaseUrl?: string;
  natsUrl: string;
  /** Only the scenarios whose name contains this. */
  only?: string;
  /** Profile `npm start` (node --cpu-prof) into this directory and summarise where the time went. */
  profileDir?: string;
}

export function parseBenchArgs(args: string[]): BenchOptions {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, fallback: number) => {
    const given = value(name);
    if (given === undefined) return fallback;
    const parsed = Number(given);
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} must be a number, 0 or more`);
    return parsed;
  };
  return {
    services: args.includes('--services'),
    durationSeconds: number('duration', 10),
    warmupSeconds: number('warmup', 2),
    connections: number('connections', 32),
    fixedRate: number('rate', 2000),
    databaseUrl: value('database-url') ?? (args.includes('--services') ? 'postgres://postgres@127.0.0.1:5432/postgres' : undefined),
    natsUrl: value('nats-url') ?? process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
    only: value('only'),
    profileDir: value('profile'),
  };
}

interface Row {
  scenario: Scenario;
  measured: Measured;
  fixedRate?: Measured;
}

/** Starts bare Fastify and the system, prepares the fixtures, runs every scenario and answers the table. */
export async function runBench(options: BenchOptions): Promise<string> {
  const namespace = `bench_${randomBytes(4).toString('hex')}`;
  const database = options.databaseUrl ? await createBenchDatabase(options.databaseUrl) : undefined;
  const stops: Array<() => Promise<void>> = [];
  let result = '';
  try {
    const bare = await startBareFastify();
    stops.push(bare.stop);
    const system = await startSystem({ services: options.services, databaseUrl: database?.url, natsUrl: options.natsUrl, namespace, profileDir: options.profileDir });
    stops.push(system.stop);
    await everyServiceUp(system.url);
    const fixtures = await prepare(system.url);
    const rssBefore = system.rssMiB();
    const nodeBefore = system.nodeMiB();
    const rows: Row[] = [];
    for (const scenario of scenarios(fixtures)) {
      if (options.only && !scenario.baseline && !scenario.name.includes(options.only)) continue;
      rows.push(await measure(scenario.baseline ? bare : system, scenario, options));
    }
    const rssAfter = system.rssMiB();
    const nodeAfter = system.nodeMiB();
    result = table(rows, options, { coldStartMs: system.coldStartMs, rssBefore, rssAfter, nodeBefore, nodeAfter });
  } finally {
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.error(`stopping: ${String(err)}`));
    await database?.drop().catch((err: unknown) => console.error(`dropping the bench database: ${String(err)}`));
    if (options.services) await deleteStream(options.natsUrl, namespace);
  }
  return options.profileDir ? `${result}\n\n${summariseProfiles(options.profileDir)}` : result;
}

async function measure(target: Started, scenario: Scenario, options: BenchOptions): Promise<Row> {
  const base = { connections: options.connections };
  if (options.warmupSeconds > 0) await load(target.url, scenario, { ...base, durationSeconds: options.warmupSeconds });
  const measured = await load(target.url, scenario, { ...base, durationSeconds: options.durationSeconds });
  const fixedRate = scenario.atFixedRate
    ? await load(target.url, scenario, { ...base, durationSeconds: options.durationSeconds, rate: options.fixedRate })
    : undefined;
  return { scenario, measured, fixedRate };
}

function table(rows: Row[], options: BenchOptions, system: { coldStartMs: number; rssBefore: number; rssAfter: number; nodeBefore: number; nodeAfter: number }): string {
  const baseline = rows.find((row) => row.scenario.baseline)?.measured.rps ?? Number.NaN;
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const lines = [
    `mode: ${options.services ? 'npm run start:services (separate processes over NATS)' : 'npm start (one process)'}, ${options.connections} connections, ${options.durationSeconds} s per run, a distinct client address per request`,
    '',
    `| scenario | req/s | p50 ms | p99 ms | non-2xx | errors | share of bare Fastify | p99 ms at ${options.fixedRate} req/s offered |`,
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(({ scenario, measured, fixedRate }) => {
      const events = scenario.eventsPerRequest ? ` (${fmt(measured.rps * scenario.eventsPerRequest)} events/s)` : '';
      return `| ${scenario.name} | ${fmt(measured.rps)}${events} | ${fmt(measured.p50, 1)} | ${fmt(measured.p99, 1)} | ${measured.non2xx} | ${measured.errors} | ${fmt((measured.rps / baseline) * 100, 1)} % | ${fixedRate ? `${fmt(fixedRate.p99, 1)} (${fmt(fixedRate.rps)} req/s answered)` : ''} |`;
    }),
    '',
    `cold start to /docs 200: ${fmt(system.coldStartMs / 1000, 1)} s${options.databaseUrl ? ' (external PostgreSQL)' : ' (fresh data directory, embedded PostgreSQL)'}`,
    `system memory, PSS${options.databaseUrl ? ' (PostgreSQL not included: external)' : ' (embedded PostgreSQL included)'}: ${fmt(system.rssBefore)} MiB before the runs, ${fmt(system.rssAfter)} MiB after (Node.js processes: ${fmt(system.nodeBefore)} and ${fmt(system.nodeAfter)} MiB)`,
  ];
  return lines.join('\n');
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
