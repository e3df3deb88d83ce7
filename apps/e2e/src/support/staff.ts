import type { StaffRole } from '@gatehouse/contracts';
import { hash } from 'bcrypt';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { call, sessionFrom } from './http';

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
  const password = 'staff-password-1';
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
  const login = await call(gatewayUrl, '/api/v1/admin/session', { body: { email: account.email, password: account.password } });
  return { session: sessionFrom(login), publicationId: account.publicationId };
}
