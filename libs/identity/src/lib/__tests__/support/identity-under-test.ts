import { BusClient, createRequestClient, type BusOptions } from '@gatehouse/bus';
import { startService, type RunningService } from '@gatehouse/runtime';
import { IdentityRequests, type CustomerAuthResult } from '@gatehouse/contracts';
import { ManualClock, loadConfig } from '@gatehouse/platform';
import { createTestDatabase, testNatsUrl, uniqueNamespace } from '@gatehouse/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { IdentityConfig, identityService } from '../../identity.module';

export interface IdentityUnderTest {
  /** A client on the same NATS namespace, as the gateway would call identity. */
  bus: BusClient;
  /** The clock identity reads; it stands still until a test moves it. */
  clock: ManualClock;
  /** The running service, and the key sealing its signing keys. */
  service: RunningService;
  signingKeysKey: string;
  /** Identity's database, for looking at what the API does not show. */
  databaseUrl: string;
  close(): Promise<void>;
}

/** Identity as deployed: its own database and bus namespace on the machine's PostgreSQL and NATS. */
export async function startIdentity(env: Record<string, string> = {}): Promise<IdentityUnderTest> {
  const db = await createTestDatabase();
  const namespace = uniqueNamespace();
  const transport = { kind: 'nats' as const, servers: [testNatsUrl()] };
  const clock = new ManualClock(new Date('2026-03-02T09:00:00.000Z'));
  const signingKeysKey = randomBytes(32).toString('base64');
  const config = loadConfig(IdentityConfig, { BCRYPT_COST: '4', LOG_LEVEL: 'silent', BUS_NAMESPACE: namespace, SIGNING_KEYS_KEY: signingKeysKey, ...env });
  const service = await startService(identityService, { config, transport, databaseUrl: db.url, clock, migrate: true }).catch(async (err) => {
    await db.drop();
    throw err;
  });
  const options: BusOptions = { service: 'gateway', namespace, transport };
  const bus = new BusClient(options, createRequestClient(options));
  return {
    bus,
    clock,
    service,
    databaseUrl: db.url,
    signingKeysKey,
    close: async () => {
      await bus.onApplicationShutdown();
      await service.close();
      await db.drop();
    },
  };
}

export const newPublicationId = (): string => randomUUID();

let customerCount = 0;

/** Registers a customer with a fresh email; returns what register answered and the credentials used. */
export async function registerCustomer(
  bus: BusClient,
  publicationId: string,
): Promise<{ auth: CustomerAuthResult; email: string; password: string }> {
  const email = `reader-${++customerCount}-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery';
  const auth = await bus.request(IdentityRequests.Register, { publicationId, email, password, name: 'A Reader' });
  return { auth, email, password };
}

/** The error a bus request failed with, for comparing whole errors. */
export async function failureOf(request: Promise<unknown>): Promise<{ code: string; status: number; detail: string }> {
  try {
    await request;
  } catch (err) {
    const { code, status, detail } = (err as { problem: { code: string; status: number; detail: string } }).problem;
    return { code, status, detail };
  }
  throw new Error('expected the request to fail');
}
