import { createServer } from 'node:http';
import type { ComponentStatus } from '@gatehouse/contracts';
import { metricsRegistry, pathOfUrl } from '@gatehouse/platform';

export interface StartupProbes {
  /** What readiness names while starting: the dependencies waited for, each `down` until it answers. */
  checks: Record<string, ComponentStatus>;
  /** Frees the port for the service's own operations routes. */
  close(): Promise<void>;
}

/**
 * The probes of a process still starting, on HEALTH_PORT: alive (`/healthz` 200) and not ready
 * (`/readyz` 503 naming what it waits for), metrics too. A service waiting for its database or NATS
 * answers its liveness and startup probes, so the kubelet does not restart it into a crash loop
 * however long the outage lasts.
 */
export function serveStartupProbes(port: number): Promise<StartupProbes> {
  const checks: Record<string, ComponentStatus> = {};
  const server = createServer((request, response) => {
    const path = pathOfUrl(request.url ?? '');
    const send = (status: number, type: string, body: string) => response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    if (request.method !== 'GET') send(404, 'application/json', '{}');
    else if (path === '/healthz') send(200, 'application/json', JSON.stringify({ status: 'up' }));
    else if (path === '/readyz') send(503, 'application/json', JSON.stringify({ status: 'down', checks }));
    else if (path === '/metrics') {
      metricsRegistry.metrics().then(
        (text) => send(200, metricsRegistry.contentType, text),
        () => send(500, 'text/plain', ''),
      );
    } else send(404, 'application/json', '{}');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => {
      server.off('error', reject);
      resolve({
        checks,
        close: () =>
          new Promise<void>((closed) => {
            server.close(() => closed());
            server.closeAllConnections();
          }),
      });
    });
  });
}
