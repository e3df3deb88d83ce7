// The steady load of the multi-host scenario, from the operator's side of the bridge:
// - access checks at CHECKS_PER_SECOND through a load balancer over both gateways (round robin
//   over the gateways whose /readyz answered, probed every second as a balancer would);
// - write cycles, one after the other: a customer created with the secret key and logged in, a
//   subscription granted to it, both through the gateway of one host, then the very next check
//   for that customer through the gateway of the other host (read after write across the cluster).
// Every answer is recorded with the phase (steady, or the fault under way) it started and ended in.
import { randomUUID } from 'node:crypto';
import { ADMIN, DOMAIN, gatewayUrl, RECEIVER_URL } from './topology.mjs';

const CHECKS_PER_SECOND = 10;
const CHECK_TIMEOUT_MS = 3_000;
const WRITE_TIMEOUT_MS = 10_000;
const PROBE_EVERY_MS = 1_000;
const CYCLE_PAUSE_MS = 300;
const PREMIUM = `https://${DOMAIN}/premium`;

/** One HTTP call; never throws: a network failure or timeout is status 0. */
export async function api(base, path, { method, key, token, session, body, headers = {}, timeoutMs = WRITE_TIMEOUT_MS } = {}) {
  const h = { ...headers };
  if (key) h['X-API-Key'] = key;
  if (token) h['Authorization'] = `Bearer ${token}`;
  if (session) h['Cookie'] = `service_session=${session}`;
  if (body !== undefined) h['Content-Type'] = 'application/json';
  try {
    const res = await fetch(`${base}/api/v1${path}`, {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    return { status: res.status, body: json, headers: res.headers };
  } catch (err) {
    return { status: 0, body: { error: String(err?.cause?.code ?? err?.name ?? err) }, headers: new Headers() };
  }
}

async function expect(status, answer, what) {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** What the load needs, made through gateway a: the staff session, a key pair, a paywall, a price and the webhook. */
export async function setUp() {
  const a = gatewayUrl('a');
  const login = await api(a, '/admin/session', { body: ADMIN });
  await expect(200, login, 'staff login');
  const session = /service_session=([^;]*)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  const keys = await expect(201, await api(a, '/admin/api-keys', { session, body: { name: 'multi-host' } }), 'key pair');
  await expect(201, await api(a, '/admin/paywalls', { session, body: { name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } } }), 'paywall');
  const product = await expect(201, await api(a, '/admin/products', { session, body: { name: 'All access', entitlements: [] } }), 'product');
  const price = await expect(201, await api(a, `/admin/products/${product.id}/prices`, { session, body: { currency: 'EUR', unitAmount: 900, interval: 'month' } }), 'price');
  await expect(201, await api(a, '/admin/webhooks', { session, body: { url: RECEIVER_URL, events: ['customer.created', 'subscription.created'] } }), 'webhook');
  return { session, publishableKey: keys.publishableKey, secretKey: keys.secretKey, priceId: price.id };
}

/** Chooses a gateway per check as a load balancer does: round robin over those whose readiness answered. */
class Balancer {
  constructor(hosts) {
    this.gateways = hosts.map((host) => ({ host, url: gatewayUrl(host), ready: true, failures: 0 }));
    this.next = 0;
  }

  start() {
    this.timer = setInterval(() => void this.probe(), PROBE_EVERY_MS);
  }

  stop() {
    clearInterval(this.timer);
  }

  async probe() {
    await Promise.all(
      this.gateways.map(async (gateway) => {
        const ok = await fetch(`${gateway.url}/readyz`, { signal: AbortSignal.timeout(PROBE_EVERY_MS) }).then(
          (res) => res.ok,
          () => false,
        );
        gateway.failures = ok ? 0 : gateway.failures + 1;
        // Out after two failed probes in a row, back at the first answer.
        gateway.ready = ok || (gateway.ready && gateway.failures < 2);
      }),
    );
  }

  pick() {
    const ready = this.gateways.filter((gateway) => gateway.ready);
    const pool = ready.length ? ready : this.gateways;
    return pool[this.next++ % pool.length];
  }
}

export class Load {
  /** `phase()` names the fault under way, or 'steady'. */
  constructor(fixture, phase) {
    Object.assign(this, { fixture, phase, checks: [], customers: [], grants: [], readAfterWrite: [], running: false });
    this.balancer = new Balancer(['a', 'b']);
  }

  start() {
    this.running = true;
    this.startedAt = Date.now();
    this.balancer.start();
    this.checkTimer = setInterval(() => void this.check(), 1000 / CHECKS_PER_SECOND);
    this.cycles = this.writeCycles();
  }

  async stop() {
    this.running = false;
    clearInterval(this.checkTimer);
    this.balancer.stop();
    await this.cycles;
    // Checks still in flight end within their timeout.
    await new Promise((r) => setTimeout(r, CHECK_TIMEOUT_MS));
  }

  /** An anonymous reader on a premium page: served means 200 and the paywall's answer. */
  async check() {
    const gateway = this.balancer.pick();
    const record = { start: Date.now(), phase: this.phase(), gateway: gateway.host };
    this.checks.push(record);
    const url = `${PREMIUM}/story-${record.start % 50}`;
    const answer = await api(gateway.url, `/access/check?url=${encodeURIComponent(url)}&userId=reader-${record.start % 97}`, {
      key: this.fixture.publishableKey,
      timeoutMs: CHECK_TIMEOUT_MS,
    });
    record.end = Date.now();
    record.status = answer.status;
    record.ok = answer.status === 200 && answer.body?.granted === false && answer.body?.reason === 'blocked';
  }

  async writeCycles() {
    for (let n = 0; this.running; n++) {
      const [writer, reader] = n % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
      await this.cycle(gatewayUrl(writer), gatewayUrl(reader), writer);
      await new Promise((r) => setTimeout(r, CYCLE_PAUSE_MS));
    }
  }

  async cycle(writer, reader, writerHost) {
    const { secretKey, publishableKey, session, priceId } = this.fixture;
    const email = `reader-${randomUUID()}@${DOMAIN}`;
    const password = 'multi-host-reader';
    const created = await api(writer, '/customers', { key: secretKey, body: { email, name: 'Reader', password }, headers: { 'Idempotency-Key': randomUUID() } });
    if (created.status === 201) this.customers.push({ id: created.body.id, at: Date.now(), via: writerHost });
    if (created.status !== 201) return;
    const login = await api(writer, '/auth/customers/login', { key: publishableKey, body: { email, password } });
    if (login.status !== 200) return;
    const startPhase = this.phase();
    const granted = await api(writer, '/admin/subscriptions', { session, body: { customerId: created.body.id, priceId }, headers: { 'Idempotency-Key': randomUUID() } });
    if (granted.status !== 201) return;
    this.grants.push({ subscriptionId: granted.body.subscriptionId, customerId: created.body.id, at: Date.now(), via: writerHost });
    // The very next check, through the other host's gateway.
    const answer = await api(reader, `/access/check?url=${encodeURIComponent(`${PREMIUM}/after-grant`)}`, {
      key: publishableKey,
      token: login.body.accessToken,
      timeoutMs: CHECK_TIMEOUT_MS,
    });
    this.readAfterWrite.push({
      via: writerHost,
      steady: startPhase === 'steady' && this.phase() === 'steady',
      status: answer.status,
      sawGrant: answer.status === 200 && answer.body?.granted === true && answer.body?.reason === 'subscriber',
      reason: answer.body?.reason ?? answer.body?.code,
    });
  }
}
