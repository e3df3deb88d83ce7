import type { Logger } from 'pino';

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 15_000;

/**
 * Runs `attempt` until it succeeds, waiting longer after each failure (0.5 s doubling up to 15 s,
 * jittered) and saying so in the log: a process started while its database or its migrations are
 * not there yet waits for them instead of exiting (and being restarted in a loop).
 */
export async function waitFor<T>(
  what: string,
  attempt: () => Promise<T>,
  logger: Logger,
  options: { retryable?: (err: unknown) => boolean } = {},
): Promise<T> {
  let delay = FIRST_DELAY_MS;
  for (let tries = 1; ; tries++) {
    try {
      const value = await attempt();
      if (tries > 1) logger.info(`${what}: ready after ${tries} attempts`);
      return value;
    } catch (err) {
      if (options.retryable && !options.retryable(err)) throw err;
      const wait = Math.round(delay * (0.75 + Math.random() / 2));
      logger.warn(`${what}: ${err instanceof Error ? err.message : String(err)}; retrying in ${(wait / 1000).toFixed(1)} s`);
      await new Promise((resolve) => setTimeout(resolve, wait));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
