// `npm run generate:api-types`: writes the OpenAPI document's types into libs/contracts (see edge/api-types.ts);
// with `--check`, writes nothing and fails when the file differs from what the document generates.
import { InProcessHub } from '@gatehouse/bus';
import { loadConfig } from '@gatehouse/platform';
import { readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { createGateway } from './lib/create-gateway';
import { API_TYPES_FILE, apiTypesOf } from './lib/edge/api-types';
import { GatewayConfig } from './lib/gateway.config';

async function main(check: boolean): Promise<void> {
  const app = await createGateway(loadConfig(GatewayConfig, { LOG_LEVEL: 'silent', PORT: '0' }), { kind: 'in-process', hub: new InProcessHub() });
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
