import type { Scenario } from './scenarios';

// autocannon ships no types.
const autocannon = require('autocannon') as (options: Record<string, unknown>) => Promise<AutocannonResult>;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  /** Offered rate, requests per second across all connections; as fast as answered when absent. */
  rate?: number;
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Loads one scenario and reports what autocannon saw; given several URLs, autocannon spreads its connections over them. */
export async function load(url: string | string[], scenario: Scenario, options: LoadOptions): Promise<Measured> {
  let n = 0;
  const first = scenario.request(0);
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    overallRate: options.rate,
    requests: [
      {
        method: first.method,
        setupRequest: (request: Record<string, unknown>) => {
          const next = scenario.request(n++);
          return { ...request, method: next.method, path: next.path, headers: next.headers ?? {}, body: next.body };
        },
      },
    ],
  });
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
