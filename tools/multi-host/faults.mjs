// The faults of the multi-host scenario, one after the other under the steady load. Each names
// the phase it runs in, from the moment it starts until the cluster has recovered and settled,
// so the assertions can attribute every failed answer to the fault it fell in.
import { gatewayUrl, HOSTS, linkOf, natsNode, run, waitFor } from './topology.mjs';

const NATS_DOWN_MS = 15_000;
const PARTITION_MS = 30_000;
/** Steady time after a recovery before the next fault, so each window is the fault's own. */
const SETTLE_MS = 10_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class Faults {
  constructor({ nats, postgres, workDir, log }) {
    Object.assign(this, { nats, postgres, workDir, log, current: 'steady', timeline: [] });
  }

  phase() {
    return this.current;
  }

  async during(name, fault) {
    const started = Date.now();
    this.current = name;
    this.log(`fault: ${name}`);
    try {
      await fault();
      await sleep(SETTLE_MS);
    } finally {
      this.current = 'steady';
      this.timeline.push({ name, started, ended: Date.now() });
    }
  }

  /** nats-1 killed (-9) for 15 s, then started again on its store; the stream has three replicas. */
  killNatsNode() {
    return this.during('nats-node-killed', async () => {
      await this.nats[0].kill('SIGKILL');
      await sleep(NATS_DOWN_MS);
      this.nats[0] = natsNode(1, this.workDir).start();
      await waitFor(`http://${HOSTS.a.ip}:8222/healthz`, 'nats-1 (JetStream current)', 60_000, [this.nats[0]]);
    });
  }

  /** Host b (nats-2, gateway-2, the second replica of every service) cut off for 30 s: its link on the bridge down. */
  partitionHost() {
    return this.during('host-b-partitioned', async () => {
      await run('ip', ['link', 'set', linkOf('b'), 'down']);
      try {
        await sleep(PARTITION_MS);
      } finally {
        await run('ip', ['link', 'set', linkOf('b'), 'up']);
      }
      await waitFor(`${gatewayUrl('b')}/readyz`, 'gateway-2 after the partition', 90_000);
    });
  }

  /** PostgreSQL restarted (fast shutdown: every connection cut) while writes are in flight. */
  restartPostgres() {
    return this.during('postgres-restarted', () => this.postgres.restart());
  }
}
