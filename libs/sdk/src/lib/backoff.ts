export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** 0 to 1: returns a number in [0, 1), Math.random unless a test brings its own. */
  random?: () => number;
}

/**
 * Exponential backoff with "equal jitter": attempt n waits between half and all of
 * base * 2^(n-1), capped at max, so tabs that failed together do not retry together.
 */
export function backoffDelay(attempt: number, { baseMs, maxMs, random = Math.random }: BackoffOptions): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
