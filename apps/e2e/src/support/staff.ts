import type { StaffRole } from '@gatehouse/contracts';
import { hash } from 'bcrypt';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ADMIN, STAFF_PASSWORD } from './constants';
import { call, sessionFrom, type Answer } from './http';

export { ADMIN, STAFF_PASSWORD } from './constants';

/** A test's first publication: its name and the domains its pages are on. */
export interface Publication {
  name: string;
  domains: string[];
}

/** The configuration identity and admin start with: ADMIN and `publication`, and bcrypt at its cheapest. */
export function bootstrapEnv(publication: Publication): Record<string, string> {
  return {
    BCRYPT_COST: '4',
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    BOOTSTRAP_PUBLICATION_NAME: publication.name,
    BOOTSTRAP_PUBLICATION_DOMAINS: publication.domains.join(','),
  };
}

export interface AdminSession {
  /** The session cookie's value. */
  session: string;
  /** The publication the session is in: the account's first. */
  publicationId: string;
  /** The whole login answer. */
  login: Answer;
}

/**
 * `POST /api/v1/admin/session` at the gateway `base` as a staff member (ADMIN unless given), as the
 * dashboard signs in: the session, failing unless the login is answered 200.
 */
export async function adminSession(base: string, account: { email: string; password: string } = ADMIN): Promise<AdminSession> {
  const login = await call(base, '/api/v1/admin/session', { body: { email: account.email, password: account.password } });
  if (login.status !== 200) throw new Error(`login of ${account.email} answered ${login.status}: ${JSON.stringify(login.body)}`);
  return { session: sessionFrom(login), publicationId: login.body.publication.id, login };
}

export interface StaffAccount {
  email: string;
  password: string;
  publicationId: string;
}

/**
 * Staff besides the bootstrap admin, written straight into admin's schema (quicker than an
 * invitation's round trip): a member of the given publication, or the admin of a new one of their own.
 */
export async function addStaff(databaseUrl: string, role: StaffRole, publicationId: string = randomUUID()): Promise<StaffAccount> {
  const email = `${role}-${randomUUID()}@example.com`;
  const password = STAFF_PASSWORD;
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const staffId = randomUUID();
    await sql.query(
      'INSERT INTO admin.publications (id, name, domains, created_at, updated_at) VALUES ($1, $2, $3, now(), now()) ON CONFLICT (id) DO NOTHING',
      [publicationId, `Publication of ${email}`, [`${publicationId}.other.example`]],
    );
    await sql.query('INSERT INTO admin.staff (id, email, name, password_hash, created_at) VALUES ($1, $2, $3, $4, now())', [
      staffId,
      email,
      role,
      await hash(password, 4),
    ]);
    await sql.query('INSERT INTO admin.memberships (staff_id, publication_id, role, created_at) VALUES ($1, $2, $3, now())', [staffId, publicationId, role]);
  } finally {
    await sql.end();
  }
  return { email, password, publicationId };
}

/** Such a staff member, logged in through the gateway. */
export async function staffSession(
  gatewayUrl: string,
  databaseUrl: string,
  role: StaffRole,
  publicationId?: string,
): Promise<{ session: string; publicationId: string }> {
  const account = await addStaff(databaseUrl, role, publicationId);
  const { session } = await adminSession(gatewayUrl, account);
  return { session, publicationId: account.publicationId };
}
