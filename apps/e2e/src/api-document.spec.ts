import { InProcessHub } from '@gatehouse/bus';
import { loadConfig } from '@gatehouse/platform';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gatewayEdge, GatewayConfig } from '@gatehouse/gateway';
import { createHttpProcess } from '@gatehouse/runtime';
import { ROOT } from './support/processes';

const run = promisify(execFile);
const REDOCLY = join(ROOT, 'node_modules/.bin/redocly');
/** The successes that are files, not JSON: the export of customers and subscriptions (docs/imports.md) and the audit log's. */
const FILE_DOWNLOADS: Record<string, string> = { '/api/v1/admin/exports/customers': 'text/csv', '/api/v1/admin/audit-log/export': 'text/csv' };

/** The document at /docs/json is valid OpenAPI, clean under redocly's recommended rules. */
describe('the OpenAPI document', () => {
  let app: NestFastifyApplication;
  let dir: string;
  let file: string;
  let document: Record<string, any>;

  beforeAll(async () => {
    ({ app } = await createHttpProcess('gateway', {
      config: loadConfig(GatewayConfig, { LOG_LEVEL: 'silent', PORT: '0' }),
      transport: { kind: 'in-process', hub: new InProcessHub() },
      edge: gatewayEdge,
    }));
    await app.init();
    const answer = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/docs/json' });
    document = JSON.parse(answer.body);
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-openapi-'));
    file = join(dir, 'openapi.json');
    await writeFile(file, answer.body);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is what the types in libs/contracts were generated from (npm run generate:api-types)', async () => {
    // The generator's own process: openapi-typescript's ES modules load there, not in Jest's module system.
    const generator = join(ROOT, 'apps/gateway/src/generate-api-types.ts');
    const { stdout } = await run(process.execPath, ['-r', '@swc-node/register', generator, '--check'], { cwd: ROOT }).catch(
      (failure: { stdout: string; stderr: string }) => ({ stdout: failure.stdout + failure.stderr }),
    );
    expect(stdout.trim()).toBe('libs/contracts/src/lib/gateway-api.ts is up to date');
  }, 60_000);

  it('passes @apidevtools/swagger-parser validation', async () => {
    // An ES module: run in its own Node process, as a CI step would.
    const script = "import('@apidevtools/swagger-parser').then((p) => p.default.validate(process.argv[1])).then(() => console.log('valid'))";
    const { stdout } = await run(process.execPath, ['-e', script, file], { cwd: ROOT });
    expect(stdout.trim()).toBe('valid');
  }, 60_000);

  it('has no error and no warning under redocly lint with the recommended rules', async () => {
    const { stdout } = await run(REDOCLY, ['lint', file, '--extends=recommended', '--format=json'], { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } }).catch(
      (failure: { stdout: string }) => failure,
    );
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('describes every success with a schema (JSON, but the CSV downloads) and every error as problem details with its codes', () => {
    for (const [path, item] of Object.entries<Record<string, any>>(document['paths'])) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          const where = `${method.toUpperCase()} ${path} ${status}`;
          if (status === '204' || status === '304') expect([where, response.content]).toEqual([where, undefined]);
          else if (Number(status) < 400) expect([where, Object.keys(response.content ?? {})]).toEqual([where, [FILE_DOWNLOADS[path] ?? 'application/json']]);
          else if (path !== '/api/v1/health') {
            const schema = response.content['application/problem+json'].schema;
            expect([where, schema.allOf[0].$ref]).toEqual([where, '#/components/schemas/ProblemDetailsDto']);
            expect(schema.allOf[1].properties.code.enum.length).toBeGreaterThan(0);
            expect(schema.allOf[1].properties.code.enum).toContain(response.content['application/problem+json'].example.code);
          }
        }
        expect(operation.security).toBeDefined();
      }
    }
    expect(document['servers'].length).toBeGreaterThan(0);
    expect(document['info'].license.name).toBe('Apache-2.0');
  });
});
