import { JetStreamEventTransport } from '@gatehouse/bus';
import type { EventEnvelope } from '@gatehouse/contracts';
import { testNatsUrl } from '@gatehouse/testing';
import { call, sessionFrom, type Answer, type Call } from './http';

/** The first admin and publication, created by the admin service at its start (decisions A3). */
export const STAFF = { email: 'staff@example.com', password: 'staff-password-1' };
export const STAFF_ENV: Record<string, string> = {
  BCRYPT_COST: '4',
  BOOTSTRAP_ADMIN_EMAIL: STAFF.email,
  BOOTSTRAP_ADMIN_PASSWORD: STAFF.password,
  BOOTSTRAP_PUBLICATION_NAME: 'Alpha Times',
  BOOTSTRAP_PUBLICATION_DOMAINS: 'alpha.example',
};

export interface KeyPair {
  name: string;
  publishableKey: string;
  secretKey: string;
}

/** A staff session in one publication, with a key pair of that publication. */
export interface Tenant {
  publicationId: string;
  session: string;
  keys: KeyPair;
}

export type Api = <T = any>(path: string, options?: Call) => Promise<Answer<T>>;

export function apiOf(base: string): Api {
  return (path, options = {}) => call(base, `/api/v1${path}`, options);
}

async function expectStatus<T>(answer: Promise<Answer<T>>, status: number): Promise<T> {
  const { status: actual, body } = await answer;
  if (actual !== status) throw new Error(`expected ${status}, got ${actual}: ${JSON.stringify(body)}`);
  return body;
}

async function logIn(api: Api): Promise<{ session: string; publicationId: string }> {
  const answer = await api('/admin/session', { body: STAFF });
  if (answer.status !== 200) throw new Error(`staff login failed: ${JSON.stringify(answer.body)}`);
  return { session: sessionFrom(answer), publicationId: answer.body.publication.id };
}

/** The bootstrap publication, as its admin sees it. */
export async function bootstrapTenant(api: Api): Promise<Tenant> {
  const { session, publicationId } = await logIn(api);
  const keys = await expectStatus<KeyPair>(api('/admin/api-keys', { session, body: { name: 'site' } }), 201);
  return { publicationId, session, keys };
}

/** A further publication of the same staff member, on a session of its own that is switched to it. */
export async function anotherTenant(api: Api, name: string): Promise<Tenant> {
  const { session } = await logIn(api);
  const created = await expectStatus<{ id: string }>(api('/admin/publications', { session, body: { name, domains: [`${name}.example`] } }), 201);
  await expectStatus(api('/admin/session/publication', { method: 'PUT', session, body: { publicationId: created.id } }), 200);
  const keys = await expectStatus<KeyPair>(api('/admin/api-keys', { session, body: { name: 'site' } }), 201);
  return { publicationId: created.id, session, keys };
}

/** Every event of these names on the namespace's stream, as a durable consumer of the test receives them. */
export class EventReader {
  readonly received: EventEnvelope[] = [];

  private constructor(private readonly transport: JetStreamEventTransport) {}

  static async start(namespace: string, names: string[]): Promise<EventReader> {
    const reader = new EventReader(await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace));
    await reader.transport.consume('test-reader', names, async (envelope) => void reader.received.push(envelope));
    return reader;
  }

  /** The events of one name, in the order received. */
  named(name: string): EventEnvelope[] {
    return this.received.filter((event) => event.name === name);
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

