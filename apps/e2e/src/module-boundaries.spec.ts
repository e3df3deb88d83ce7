import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { TextLinter } from './support/lint-text';

const ROOT = resolve(__dirname, '../../..');
let linter: TextLinter;
beforeAll(async () => {
  // The boundaries rule reads the Nx project graph: build it first, as `npm run lint` does.
  spawnSync('npx', ['nx', 'show', 'projects'], { cwd: ROOT, env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' } });
  linter = new TextLinter(ROOT);
  // ESLint loads the configuration and its plugins on the first file.
  await linter.lint('libs/platform/src/lib/warm-up.ts', 'export {};\n');
}, 120_000);
afterAll(() => linter.close());

/** Lints one imaginary file placed in the workspace and returns the errors of the rules named. */
async function lintErrors(file: string, source: string, rules: string[] = ['@nx/enforce-module-boundaries']): Promise<string[]> {
  const messages = await linter.lint(file, source);
  return messages.filter((m) => (m.ruleId === null || rules.includes(m.ruleId)) && m.severity === 2).map((m) => m.message);
}
const boundaryErrors = (file: string, source: string) => lintErrors(file, source);

describe('module boundaries (lint)', () => {
  it('refuses a service lib importing another service', async () => {
    const errors = await boundaryErrors('libs/access/src/lib/leak.ts', "import { billingService } from '@gatehouse/billing';\nexport const leak = billingService;\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/type:service/);
  });

  it('refuses contracts importing anything of ours', async () => {
    const errors = await boundaryErrors('libs/contracts/src/lib/leak.ts', "import { AppError } from '@gatehouse/platform';\nexport const leak = AppError;\n");
    expect(errors).toHaveLength(1);
  });

  it('lets a service lib import the shared plumbing', async () => {
    const source = [
      "import { Events } from '@gatehouse/contracts';",
      "import { BusClient } from '@gatehouse/bus';",
      "import { DatabaseModule } from '@gatehouse/db';",
      "import { AppError } from '@gatehouse/platform';",
      'export const ok = [Events, BusClient, DatabaseModule, AppError];',
      '',
    ].join('\n');
    expect(await boundaryErrors('libs/access/src/lib/fine.ts', source)).toEqual([]);
  });

  it('lets access and the gateway share the access decision (type:domain), which itself imports no service, bus or database', async () => {
    const shared = "import { decideAccess } from '@gatehouse/access-decisions';\nexport const ok = decideAccess;\n";
    expect(await boundaryErrors('libs/gateway/src/lib/access/fine.ts', shared)).toEqual([]);
    expect(await boundaryErrors('libs/access/src/lib/decisions/fine.ts', shared)).toEqual([]);
    expect(await boundaryErrors('libs/access-decisions/src/lib/leak.ts', "import { BusClient } from '@gatehouse/bus';\nexport const leak = BusClient;\n")).toHaveLength(1);
    expect(await boundaryErrors('libs/access-decisions/src/lib/leak.ts', "import { accessService } from '@gatehouse/access';\nexport const leak = accessService;\n")).toHaveLength(1);
  });

  it('keeps the runtime above the plumbing and the services: only apps (and tests) boot processes', async () => {
    const boot = "import { startService } from '@gatehouse/runtime';\nexport const leak = startService;\n";
    expect(await boundaryErrors('libs/bus/src/lib/leak.ts', boot)).toHaveLength(1);
    expect(await boundaryErrors('libs/access/src/lib/leak.ts', boot)).toHaveLength(1);
    expect(await boundaryErrors('apps/access/src/fine.ts', boot)).toEqual([]);
  });
});

describe('replica-local caches (lint)', () => {
  const cacheErrors = (file: string, source: string) => lintErrors(file, source, ['no-restricted-syntax', 'no-restricted-imports']);

  it('refuses a new hand-rolled cache anywhere in server code: a remembered-answers Map, an evicted Map, an LRU of its own', async () => {
    const evicting = [
      'const seen = new Map<string, number>();',
      'export function remember(key: string): void {',
      '  if (seen.size >= 100) seen.delete(seen.keys().next().value as string);',
      '  seen.set(key, Date.now());',
      '}',
      '',
    ].join('\n');
    expect(await cacheErrors('libs/admin/src/lib/team/seen.ts', evicting)).toEqual([expect.stringMatching(/ReadModel/), expect.stringMatching(/ReadModel/)]);
    const remembered = 'export class Lookups {\n  private readonly cache = new Map<string, string>();\n  size = () => this.cache.size;\n}\n';
    expect(await cacheErrors('libs/gateway/src/lib/edge/lookups.ts', remembered)).toEqual([expect.stringMatching(/ReadModel/)]);
    const ownLru = "import { LRUCache } from 'lru-cache';\nexport const prices = new LRUCache<string, number>({ max: 10 });\n";
    expect(await cacheErrors('libs/billing/src/lib/catalog/prices-memo.ts', ownLru)).toEqual([expect.stringMatching(/ReadModel/), expect.stringMatching(/ReadModel/)]);
  });

  it('refuses a Map held across calls whatever its name: in a field, set in a method, or at module scope', async () => {
    const field = 'export class Plans {\n  private readonly byId = new Map<string, number>();\n  of = (id: string) => this.byId.get(id);\n}\n';
    expect(await cacheErrors('libs/billing/src/lib/catalog/plans.ts', field)).toEqual([expect.stringMatching(/ReadModel/)]);
    const assigned = 'export class Plans {\n  private byId: Map<string, number>;\n  reset(): void {\n    this.byId = new Map();\n  }\n}\n';
    expect(await cacheErrors('libs/billing/src/lib/catalog/plans.ts', assigned)).toEqual([expect.stringMatching(/ReadModel/)]);
    const moduleScope = 'export const plans = new WeakMap<object, number>();\n';
    expect(await cacheErrors('apps/gateway/src/plans.ts', moduleScope)).toEqual([expect.stringMatching(/ReadModel/)]);
  });

  it('lets a call keep a Map of its own, and the allow-listed state (eslint.config.mjs) keep theirs', async () => {
    const local = 'export function byId(rows: Array<{ id: string }>): Map<string, { id: string }> {\n  const map = new Map(rows.map((row) => [row.id, row]));\n  return map;\n}\n';
    expect(await cacheErrors('libs/billing/src/lib/catalog/by-id.ts', local)).toEqual([]);
    const counters = 'export class Counters {\n  private readonly windows = new Map<number, number>();\n}\n';
    expect(await cacheErrors('libs/gateway/src/lib/edge/rate-limit.storage.ts', counters)).toEqual([]);
  });

  it('lets a service keep what others own in a read model', async () => {
    const source = [
      "import { ReadModels, type ReadModel } from '@gatehouse/bus';",
      'export class Prices {',
      '  private readonly prices: ReadModel<string, number>;',
      '  constructor(readModels: ReadModels) {',
      "    this.prices = readModels.define({ name: 'prices', load: async () => 1, max: 100, freshMs: 60_000 });",
      '  }',
      '  of = (id: string) => this.prices.get(id);',
      '}',
      '',
    ].join('\n');
    expect(await cacheErrors('libs/billing/src/lib/catalog/prices-read-model.ts', source)).toEqual([]);
  });

  it('keeps Nest classes in files named after their kind: a provider in *.service.ts, a module in *.module.ts, a controller or bus handler in *.controller.ts or *.handler.ts', async () => {
    const named = (file: string, source: string) => lintErrors(file, source, ['gatehouse/file-names']);
    const provider = "import { Injectable } from '@nestjs/common';\n@Injectable()\nexport class Prices {}\n";
    expect(await named('libs/billing/src/lib/catalog/prices-cache.ts', provider)).toEqual([expect.stringContaining('@Injectable() belongs in a file whose name matches')]);
    expect(await named('libs/billing/src/lib/catalog/prices-cache.service.ts', provider)).toEqual([]);
    const module = "import { Module } from '@nestjs/common';\n@Module({})\nexport class PricesModule {}\n";
    expect(await named('libs/billing/src/lib/catalog/prices.service.ts', module)).toEqual([expect.stringContaining('@Module() belongs in a file')]);
    expect(await named('libs/billing/src/lib/catalog/prices.module.ts', module)).toEqual([]);
    const handler = "import { Controller } from '@nestjs/common';\n@Controller()\nexport class PricesHandler {}\n";
    expect(await named('libs/billing/src/lib/catalog/prices.ts', handler)).toEqual([expect.stringContaining('@Controller() belongs in a file')]);
    expect(await named('libs/billing/src/lib/catalog/prices.handler.ts', handler)).toEqual([]);
  });
});
