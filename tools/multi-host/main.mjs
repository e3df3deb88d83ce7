// `npm run scenario:multi-host` (as root): Gatehouse on four hosts (network namespaces on a
// bridge), under steady load, through a NATS node killed, a host partitioned for 30 s and
// PostgreSQL restarted. Prints its figures, writes reports/multi-host.json (passed and failed
// assertions, counted by .ci/run) and exits 1 when an assertion fails. Every namespace, link and
// process it made is removed on the way out, whatever happens.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertAll, awaitDeliveries, timeline } from './assertions.mjs';
import { Faults } from './faults.mjs';
import { Load, setUp } from './load.mjs';
import {
  buildServices,
  createHosts,
  gatehouseReplicas,
  gatewayUrl,
  healthPort,
  HostPostgres,
  HOSTS,
  makeWorkDir,
  migrate,
  natsNode,
  receiver,
  redis,
  ROOT,
  SERVICES,
  tearDown,
  waitFor,
} from './topology.mjs';

const STEADY_BEFORE_MS = 15_000;
const started = Date.now();
const log = (line) => console.log(`[multi-host +${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);
const workDir = makeWorkDir();
const keepLogs = process.env.MULTI_HOST_KEEP_LOGS;

let cleaned = false;
function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  tearDown(keepLogs ? undefined : workDir);
  if (keepLogs) console.log(`[multi-host] logs kept in ${workDir}/logs`);
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

function report(passed, failed, figures = {}) {
  mkdirSync(join(ROOT, 'reports'), { recursive: true });
  writeFileSync(join(ROOT, 'reports/multi-host.json'), JSON.stringify({ passed, failed, figures }, null, 2));
}

async function main() {
  log('building the services (npm run build:services)');
  buildServices();
  log('hosts: gh-mh-a, gh-mh-b, gh-mh-c, gh-mh-d on bridge gh-mh-br');
  createHosts();

  const postgres = new HostPostgres(workDir);
  postgres.init();
  const nats = [1, 2, 3].map((i) => natsNode(i, workDir).start());
  const infrastructure = [...nats, redis(workDir).start(), receiver(workDir).start()];
  for (const [i, host] of ['a', 'b', 'c'].entries()) await waitFor(`http://${HOSTS[host].ip}:8222/healthz`, `nats-${i + 1}`, 60_000, [nats[i]]);
  log('PostgreSQL on d, NATS cluster on a, b, c, Redis and the webhook receiver on c');

  migrate();
  const gatehouse = [...gatehouseReplicas('a', workDir), ...gatehouseReplicas('b', workDir)];
  for (const replica of gatehouse) replica.start();
  for (const host of ['a', 'b']) {
    for (const service of SERVICES) await waitFor(`http://${HOSTS[host].ip}:${healthPort(service)}/readyz`, `${service} on ${host}`, 180_000, gatehouse);
    await waitFor(`${gatewayUrl(host)}/readyz`, `gateway on ${host}`, 120_000, gatehouse);
  }
  log('two gateways and two replicas of each service ready (a, b)');

  const fixture = await setUp();
  const faults = new Faults({ nats, postgres, workDir, log });
  const load = new Load(fixture, () => faults.phase());
  load.start();
  log('steady load: 10 checks/s through both gateways, write cycles across hosts');
  try {
    await new Promise((r) => setTimeout(r, STEADY_BEFORE_MS));
    await faults.killNatsNode();
    await faults.partitionHost();
    await faults.restartPostgres();
    await new Promise((r) => setTimeout(r, 5_000));
  } finally {
    await load.stop();
  }
  log(`load stopped: ${load.checks.length} checks, ${load.customers.length} customers and ${load.grants.length} grants acknowledged`);

  const received = await awaitDeliveries(load, join(workDir, 'received.jsonl'), log);
  const { results, figures } = await assertAll({ load, faults, received });

  console.log('\nMulti-host scenario figures');
  console.log(JSON.stringify(figures, null, 2));
  console.log('');
  for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}: ${r.detail}`);
  const failed = results.filter((r) => !r.ok).length;
  report(results.length - failed, failed, figures);
  for (const fault of faults.timeline) console.log(`${fault.name}, checks served per gateway: ${timeline(load.checks, fault)}\n`);
  if (failed) {
    writeFileSync(join(workDir, 'checks.json'), JSON.stringify(load.checks));
    for (const p of [...infrastructure, ...gatehouse]) if (/gateway|access|nats/.test(p.name)) console.log(`\n--- ${p.name} (last lines)\n${p.tail(8)}`);
  }
  console.log(`\nmulti-host scenario: ${results.length - failed} passed, ${failed} failed (${Math.round((Date.now() - started) / 1000)} s)`);
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    cleanUp();
    process.exit(code);
  },
  (err) => {
    console.error(`[multi-host] ${err?.stack ?? err}`);
    report(0, 1);
    cleanUp();
    process.exit(1);
  },
);
