import { call, type Answer, type Call } from './http';
import { adminSession, bootstrapEnv } from './staff';

/** The configuration of identity and admin here: ADMIN and the first publication, Alpha Times at alpha.example. */
export const STAFF_ENV: Record<string, string> = bootstrapEnv({ name: 'Alpha Times', domains: ['alpha.example'] });

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

/** Calls to `/api/v1/...` of the gateway at `base`. */
export type Api = (<T = any>(path: string, options?: Call) => Promise<Answer<T>>) & { base: string };

export function apiOf(base: string): Api {
  return Object.assign(<T = any>(path: string, options: Call = {}) => call<T>(base, `/api/v1${path}`, options), { base });
}

async function expectStatus<T>(answer: Promise<Answer<T>>, status: number): Promise<T> {
  const { status: actual, body } = await answer;
  if (actual !== status) throw new Error(`expected ${status}, got ${actual}: ${JSON.stringify(body)}`);
  return body;
}

/** The bootstrap publication, as its admin sees it. */
export async function bootstrapTenant(api: Api): Promise<Tenant> {
  const { session, publicationId } = await adminSession(api.base);
  const keys = await expectStatus<KeyPair>(api('/admin/api-keys', { session, body: { name: 'site' } }), 201);
  return { publicationId, session, keys };
}

/** A further publication of the same staff member, on a session of its own that is switched to it. */
export async function anotherTenant(api: Api, name: string): Promise<Tenant> {
  const { session } = await adminSession(api.base);
  const created = await expectStatus<{ id: string }>(api('/admin/publications', { session, body: { name, domains: [`${name}.example`] } }), 201);
  await expectStatus(api('/admin/session/publication', { method: 'PUT', session, body: { publicationId: created.id } }), 200);
  const keys = await expectStatus<KeyPair>(api('/admin/api-keys', { session, body: { name: 'site' } }), 201);
  return { publicationId: created.id, session, keys };
}
