// What the multi-host scenario asserts once the load has stopped, and the figures it prints.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { databaseUrl } from './topology.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

/**
 * The longest window of failed checks each fault may cause (ms), documented in docs/operations.md
 * ("Proven on several hosts"). A window runs from the first failed check to the last one, failures
 * less than a second apart counting as one window.
 */
export const WINDOW_BOUNDS_MS = {
  'nats-node-killed': 8_000,
  'host-b-partitioned': 20_000,
  'postgres-restarted': 8_000,
};
const SAME_WINDOW_GAP_MS = 1_000;
/** How long the outbound webhooks of the last writes may take to arrive once the load stopped. */
const DELIVERY_WAIT_MS = 150_000;

const overlaps = (record, fault) => record.start <= fault.ended && (record.end ?? record.start) >= fault.started;

/** Failures of one fault's time grouped into windows; the longest and how many checks failed. */
export function failureWindows(checks, fault) {
  const during = checks.filter((check) => overlaps(check, fault));
  const failed = during.filter((check) => !check.ok).sort((x, y) => x.start - y.start);
  const windows = [];
  for (const check of failed) {
    const last = windows[windows.length - 1];
    if (last && check.start - last.end <= SAME_WINDOW_GAP_MS) last.end = Math.max(last.end, check.end);
    else windows.push({ start: check.start, end: check.end });
  }
  const longest = Math.max(0, ...windows.map((w) => w.end - w.start));
  const firstFailure = windows[0] ? windows[0].start - fault.started : null;
  // Which gateway failed, and how: `b 0` is no answer from gateway b within the check's timeout.
  const failedBy = {};
  for (const check of failed) failedBy[`${check.gateway} ${check.status}`] = (failedBy[`${check.gateway} ${check.status}`] ?? 0) + 1;
  return { checks: during.length, failed: failed.length, windows: windows.length, longestMs: longest, firstFailureAfterMs: firstFailure, failedBy };
}

/** Per 2 s from the fault's start: answered/asked per gateway, e.g. `+6s a 9/10 b 0/10`. */
export function timeline(checks, fault) {
  const lines = [];
  for (let t = fault.started; t < fault.ended; t += 2_000) {
    const slot = checks.filter((c) => c.start >= t && c.start < t + 2_000);
    const of = (host) => `${host} ${slot.filter((c) => c.gateway === host && c.ok).length}/${slot.filter((c) => c.gateway === host).length}`;
    lines.push(`+${Math.round((t - fault.started) / 1000)}s ${of('a')} ${of('b')}`);
  }
  return lines.join(' | ');
}

function receivedDeliveries(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** Waits until every acknowledged write's webhook arrived (or the wait is over); returns what arrived. */
export async function awaitDeliveries(load, file, log) {
  const expected = () => {
    const received = receivedDeliveries(file);
    const seen = new Set(received.map((r) => `${r.event}:${r.subject}`));
    const missing = [...load.customers.map((c) => `customer.created:${c.id}`), ...load.grants.map((g) => `subscription.created:${g.subscriptionId}`)].filter((k) => !seen.has(k));
    return { received, missing };
  };
  const deadline = Date.now() + DELIVERY_WAIT_MS;
  let state = expected();
  while (state.missing.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 2_000));
    state = expected();
  }
  log(`webhooks: ${state.received.length} received, ${state.missing.length} of the acknowledged writes' events missing`);
  return state.received;
}

export async function assertAll({ load, faults, received }) {
  const results = [];
  const check = (name, ok, detail) => results.push({ name, ok, detail });
  const figures = {};

  // Checks served throughout, but within each fault's bounded window.
  const faultTimes = faults.timeline;
  for (const fault of faultTimes) {
    const windows = failureWindows(load.checks, fault);
    figures[fault.name] = { ...windows, boundMs: WINDOW_BOUNDS_MS[fault.name], phaseSeconds: Math.round((fault.ended - fault.started) / 1000) };
    check(`${fault.name}: longest window of failed checks below ${WINDOW_BOUNDS_MS[fault.name]} ms`, windows.longestMs < WINDOW_BOUNDS_MS[fault.name], `${windows.longestMs} ms; ${windows.failed} of ${windows.checks} checks failed`);
  }
  const steady = load.checks.filter((c) => c.end && !faultTimes.some((fault) => overlaps(c, fault)));
  const steadyFailed = steady.filter((c) => !c.ok);
  figures.steady = { checks: steady.length, failed: steadyFailed.length };
  check('no check fails outside the faults', steadyFailed.length === 0 && steady.length > 100, `${steadyFailed.length} of ${steady.length} failed${steadyFailed.length ? ` (${steadyFailed.map((c) => `${c.gateway} ${c.status} at +${((c.start - load.startedAt) / 1000).toFixed(1)}s`).join(', ')})` : ''}`);

  // No write acknowledged and lost.
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const customerIds = load.customers.map((c) => c.id);
    const subscriptionIds = load.grants.map((g) => g.subscriptionId);
    const customers = await db.query('SELECT count(*)::int AS n FROM identity.customers WHERE id = ANY($1::uuid[])', [customerIds]);
    const subscriptions = await db.query('SELECT count(*)::int AS n FROM billing.subscriptions WHERE id = ANY($1::uuid[])', [subscriptionIds]);
    figures.writes = { customers: customerIds.length, grants: subscriptionIds.length };
    check('every acknowledged customer is in the database', customers.rows[0].n === customerIds.length && customerIds.length > 20, `${customers.rows[0].n} of ${customerIds.length}`);
    check('every acknowledged grant is in the database', subscriptions.rows[0].n === subscriptionIds.length && subscriptionIds.length > 20, `${subscriptions.rows[0].n} of ${subscriptionIds.length}`);
  } finally {
    await db.end();
  }

  // Every event of an acknowledged write delivered exactly once; none twice.
  const bySubject = new Map();
  for (const r of received) bySubject.set(`${r.event}:${r.subject}`, (bySubject.get(`${r.event}:${r.subject}`) ?? 0) + 1);
  const deliveryIds = new Map();
  for (const r of received) deliveryIds.set(r.delivery, (deliveryIds.get(r.delivery) ?? 0) + 1);
  const acknowledged = [...load.customers.map((c) => `customer.created:${c.id}`), ...load.grants.map((g) => `subscription.created:${g.subscriptionId}`)];
  const lost = acknowledged.filter((k) => !bySubject.has(k));
  const duplicated = [...bySubject.entries()].filter(([, n]) => n > 1).map(([k]) => k);
  const repeatedDeliveries = [...deliveryIds.values()].filter((n) => n > 1).length;
  figures.webhooks = { expected: acknowledged.length, received: received.length, lost: lost.length, duplicated: duplicated.length, repeatedDeliveryIds: repeatedDeliveries };
  check('no outbound webhook of an acknowledged write lost', lost.length === 0, lost.length ? `lost: ${lost.slice(0, 5).join(', ')}` : `${acknowledged.length} delivered`);
  check('no outbound webhook delivered twice', duplicated.length === 0 && repeatedDeliveries === 0, duplicated.length ? `twice: ${duplicated.slice(0, 5).join(', ')}` : `${received.length} deliveries, each event once`);

  // The next check sees a change, across hosts.
  const steadyRaw = load.readAfterWrite.filter((r) => r.steady);
  const stale = steadyRaw.filter((r) => !r.sawGrant);
  const duringFaults = load.readAfterWrite.filter((r) => !r.steady);
  figures.readAfterWrite = {
    steady: steadyRaw.length,
    staleSteady: stale.length,
    duringFaults: duringFaults.length,
    sawGrantDuringFaults: duringFaults.filter((r) => r.sawGrant).length,
  };
  check('the next check through the other host sees a grant', stale.length === 0 && steadyRaw.length > 20, `${steadyRaw.length - stale.length} of ${steadyRaw.length}${stale.length ? `; not seen: ${[...new Set(stale.map((r) => `${r.status} ${r.reason}`))].join(', ')}` : ''}`);

  return { results, figures };
}
