import { ConfigError } from './config';

/**
 * Runs an app's start-up. Invalid configuration ends the process with one line naming the
 * variable; any other start-up failure is printed whole.
 */
export function runMain(start: () => Promise<unknown>): void {
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
