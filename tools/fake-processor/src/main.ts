import { runMain } from '@gatehouse/platform';
import { readFileSync } from 'node:fs';
import { deliverEvent, startFakeProcessor } from './index';

const USAGE = `Usage:
  fake-processor                                   serve the fake processor API (FAKE_PROCESSOR_PORT, default 12111;
                                                   FAKE_PROCESSOR_DELIVER=false: do not deliver events to webhook endpoints;
                                                   FAKE_PROCESSOR_DELIVERY_DELAY_MS: deliver each event that late, default 0)
  fake-processor send <url> <secret> <event.json>  sign an event as the processor does and POST it to <url> ("-" reads stdin)`;

/**
 * The fake payment processor for local development: point billing at it with
 * PROCESSOR_API_URL=http://127.0.0.1:12111. Events are delivered to the webhook endpoints that
 * saving processor settings creates, as the processor would deliver them. Other processes drive
 * it through its control routes (`/_fake/...`, see docs/billing.md).
 */
runMain(async () => {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'send') return send(args);
  if (command !== undefined) throw new Error(USAGE);
  const fake = await startFakeProcessor({
    port: Number(process.env['FAKE_PROCESSOR_PORT'] ?? 12111),
    host: process.env['FAKE_PROCESSOR_HOST'] ?? '127.0.0.1',
    deliverEvents: process.env['FAKE_PROCESSOR_DELIVER'] !== 'false',
    deliveryDelayMs: Number(process.env['FAKE_PROCESSOR_DELIVERY_DELAY_MS'] ?? 0),
  });
  console.log(`Fake processor listening on ${fake.url} (set PROCESSOR_API_URL=${fake.url})`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
});

async function send([url, secret, file]: string[]): Promise<void> {
  if (!url || !secret || !file) throw new Error(USAGE);
  const event = JSON.parse(readFileSync(file === '-' ? 0 : file, 'utf8')) as object;
  const result = await deliverEvent(url, secret, event);
  console.log(result.status, JSON.stringify(result.body));
}
