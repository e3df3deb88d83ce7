import { uniqueNamespace } from '@gatehouse/testing';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startGatewayOverNats, type TestGateway } from './support/system';

jest.setTimeout(60_000);

const ROOT = resolve(__dirname, '../../..');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Operation {
  security?: Array<Record<string, string[]>>;
}

/** Admin routes of the OpenAPI document: those a staff session may call, as `GET /api/v1/admin/paywalls/:id`. */
function adminRoutes(document: { paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>> }): string[] {
  const routes: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = operations[method];
      if (operation?.security?.some((scheme) => 'adminSession' in scheme)) routes.push(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
    }
  }
  return routes.sort();
}

/**
 * The map of docs/dashboard.md: each row's screen (a path, or "every signed-in page" for the shell) and the routes in its last cell, written as
 * "`GET`, `POST /api/v1/admin/paywalls`" (methods sharing the path that follows them) and with
 * query strings left out.
 */
function mappedRoutes(markdown: string): Map<string, string> {
  const table = markdown.split('## Screens and the routes they use')[1].split('\n## ')[0];
  const map = new Map<string, string>();
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 5 || cells[1] === 'Screen' || cells[1].startsWith('---')) continue;
    const screen = cells[2];
    let pending: string[] = [];
    for (const [, code] of cells[3].matchAll(/`([^`]+)`/g)) {
      const [method, path] = code.split(' ');
      if (!path) {
        pending.push(method);
        continue;
      }
      for (const m of [...pending, method]) map.set(`${m} ${path.split(/[?#]/)[0]}`, screen);
      pending = [];
    }
  }
  return map;
}

/** The paths of the dashboard's router (`apps/dashboard/src/router.tsx`), as `/dashboard/<path>`. */
function routerPaths(): Set<string> {
  const source = readFileSync(resolve(ROOT, 'apps/dashboard/src/router.tsx'), 'utf8');
  const paths = [...source.matchAll(/(?:screen|editableScreen)\('([^']+)'/g), ...source.matchAll(/path: '([^'/][^']*)'/g)].map(([, path]) => `/dashboard/${path.replace(/^\//, '')}`);
  return new Set(paths);
}

describe('docs/dashboard.md: every admin route has a screen', () => {
  let gateway: TestGateway;
  let document: Parameters<typeof adminRoutes>[0];

  beforeAll(async () => {
    gateway = await startGatewayOverNats(uniqueNamespace('routemap'));
    document = (await (await fetch(`${gateway.url}/docs/json`)).json()) as typeof document;
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('maps each admin route of the OpenAPI document to a screen', () => {
    const routes = adminRoutes(document);
    expect(routes.length).toBeGreaterThan(40);
    const map = mappedRoutes(readFileSync(resolve(ROOT, 'docs/dashboard.md'), 'utf8'));
    expect(routes.filter((route) => !map.has(route))).toEqual([]);
  });

  it('names only screens that exist in the dashboard router', () => {
    const map = mappedRoutes(readFileSync(resolve(ROOT, 'docs/dashboard.md'), 'utf8'));
    const paths = routerPaths();
    const screens = new Set(
      [...map.values()].filter((screen) => screen.startsWith('`/dashboard/')).map((screen) => screen.slice(1).split(/[`#?]/)[0].replace(/\/\$\w+$/, '')),
    );
    expect(screens.size).toBeGreaterThan(10);
    expect([...screens].filter((screen) => !paths.has(screen))).toEqual([]);
  });
});
