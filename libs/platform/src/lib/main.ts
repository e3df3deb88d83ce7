import { setFlagsFromString } from 'node:v8';
import { ConfigError } from './config';

/**
 * Runs an app's start-up. Invalid configuration ends the process with one line naming the
 * variable; any other start-up failure is printed whole.
 */
export function runMain(start: () => Promise<unknown>): void {
  keepShortLivedObjectsYoung();
  start().catch((err: unknown) => {
    if (err instanceof ConfigError) console.error(err.message);
    else console.error(err);
    process.exit(1);
  });
}

/**
 * On SIGTERM or SIGINT runs `close` once and exits 0 when it is done, or 1 when it fails or is
 * still running after `graceMs` (so the process always ends within its grace period).
 */
export function closeOnSignals(close: () => Promise<void>, graceMs: number): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    setTimeout(() => {
      console.error(`${signal}: shutdown still running after ${graceMs} ms, exiting`);
      process.exit(1);
    }, graceMs).unref();
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

/**
 * Turns off V8's allocation-site pretenuring. When a spell of slow requests (a burst of writes,
 * a slow database) keeps request objects alive across collections, V8 starts allocating them
 * straight in the old generation, and does not go back: every later request's objects (the HTTP
 * request and response, their headers, the framework's context) became garbage that only a full
 * collection frees. Measured in docs/performance.md ("Pretenuring"): 6 MB promoted per young
 * collection instead of 0.3, each collection ten times slower, 300 MB more memory, and about a third
 * fewer access checks a second. A server's objects live for one request or for the process: the
 * young generation is where they belong.
 */
function keepShortLivedObjectsYoung(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
