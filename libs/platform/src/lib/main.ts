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
