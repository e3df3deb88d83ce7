import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { GatewayConfig } from '../gateway.config';

export const DASHBOARD_PATH = '/dashboard';

/** The built dashboard (`npm run build:web`), or null when it has not been built. */
export function dashboardDirectory(config: GatewayConfig): string | null {
  const root = resolve(config.DASHBOARD_DIR);
  return existsSync(resolve(root, 'index.html')) ? root : null;
}

/**
 * Serves the dashboard at `/dashboard` on the gateway's own origin (decisions J3), so its session
 * cookie and the CSRF check need no extra origin. Hashed assets are cached for good; any other
 * path under `/dashboard/` answers index.html, where the app's router takes over.
 */
export function serveDashboard(fastify: FastifyInstance, root: string): void {
  // Its own encapsulated context: `reply.sendFile` stays local, so other static mounts do not collide.
  void fastify.register(async (scope) => {
    await scope.register(fastifyStatic, { root, serve: false });
    scope.get(DASHBOARD_PATH, (_request, reply) => reply.redirect(`${DASHBOARD_PATH}/`, 301));
    scope.get(`${DASHBOARD_PATH}/*`, (request, reply) => {
      const path = (request.params as { '*': string })['*'];
      const file = resolve(root, path);
      void reply.header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'same-origin');
      if (path.startsWith('assets/') && file.startsWith(root + sep) && existsSync(file) && statSync(file).isFile()) {
        return reply.header('Cache-Control', 'public, max-age=31536000, immutable').sendFile(path, { cacheControl: false });
      }
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html', { cacheControl: false });
    });
  });
}
