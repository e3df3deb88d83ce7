// `npm run generate:api-types`: writes the OpenAPI document's types into libs/contracts (see edge/api-types.ts);
// with `--check`, writes nothing and fails when the file differs from what the document generates.
import { InProcessHub } from '@gatehouse/bus';
import { API_TYPES_FILE, apiTypesOf, gatewayEdge, GatewayConfig } from '@gatehouse/gateway';
import { loadConfig } from '@gatehouse/platform';
import { createHttpProcess } from '@gatehouse/runtime';
import { readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';

async function main(check: boolean): Promise<void> {
  const config = loadConfig(GatewayConfig, { LOG_LEVEL: 'silent', PORT: '0' });
  const { app } = await createHttpProcess('gateway', { config, transport: { kind: 'in-process', hub: new InProcessHub() }, edge: gatewayEdge });
  try {
    await app.init();
    const answer = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/docs/json' });
    const types = await apiTypesOf(JSON.parse(answer.body));
    const name = relative(process.cwd(), API_TYPES_FILE);
    if (!check) {
      await writeFile(API_TYPES_FILE, types);
      process.stdout.write(`wrote ${name}\n`);
    } else if ((await readFile(API_TYPES_FILE, 'utf8').catch(() => '')) === types) {
      process.stdout.write(`${name} is up to date\n`);
    } else {
      process.stdout.write(`${name} is stale: run npm run generate:api-types\n`);
      process.exitCode = 1;
    }
  } finally {
    await app.close();
  }
}

main(process.argv.includes('--check')).catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exitCode = 1;
});
