import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };

/** Lints one imaginary file placed in the workspace and returns the boundary errors ESLint reports. */
function boundaryErrors(file: string, source: string): string[] {
  const run = spawnSync('npx', ['eslint', '--format', 'json', '--stdin', '--stdin-filename', file], {
    cwd: ROOT,
    env,
    input: source,
    encoding: 'utf8',
  });
  const [result] = JSON.parse(run.stdout) as Array<{ messages: Array<{ ruleId: string; severity: number; message: string }> }>;
  return result.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries' && m.severity === 2).map((m) => m.message);
}

describe('module boundaries (lint)', () => {
  // The rule reads the Nx project graph; build it once as `npm run lint` does.
  beforeAll(() => spawnSync('npx', ['nx', 'show', 'projects'], { cwd: ROOT, env }));

  it('refuses a service lib importing another service', () => {
    const errors = boundaryErrors('libs/access/src/lib/leak.ts', "import { billingService } from '@gatehouse/billing';\nexport const leak = billingService;\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/type:service/);
  });

  it('refuses contracts importing anything of ours', () => {
    const errors = boundaryErrors('libs/contracts/src/lib/leak.ts', "import { AppError } from '@gatehouse/platform';\nexport const leak = AppError;\n");
    expect(errors).toHaveLength(1);
  });

  it('lets a service lib import the shared plumbing', () => {
    const source = [
      "import { Events } from '@gatehouse/contracts';",
      "import { BusClient } from '@gatehouse/bus';",
      "import { DatabaseModule } from '@gatehouse/db';",
      "import { AppError } from '@gatehouse/platform';",
      'export const ok = [Events, BusClient, DatabaseModule, AppError];',
      '',
    ].join('\n');
    expect(boundaryErrors('libs/access/src/lib/fine.ts', source)).toEqual([]);
  });

  it('keeps the runtime above the plumbing and the services: only apps (and tests) boot processes', () => {
    const boot = "import { startService } from '@gatehouse/runtime';\nexport const leak = startService;\n";
    expect(boundaryErrors('libs/bus/src/lib/leak.ts', boot)).toHaveLength(1);
    expect(boundaryErrors('libs/access/src/lib/leak.ts', boot)).toHaveLength(1);
    expect(boundaryErrors('apps/access/src/fine.ts', boot)).toEqual([]);
  });
});
