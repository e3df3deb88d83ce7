import { GetJwks } from '@gatehouse/contracts';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { verifyAccessToken } from '../../__tests__/support/access-token-verifier';
import { newPublicationId, registerCustomer, startIdentity, type IdentityUnderTest } from '../../__tests__/support/identity-under-test';
import { SigningKeysService } from '../signing-keys.service';

const ROOT = resolve(__dirname, '../../../../../..');
const kidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { kid: string }).kid;

describe('signing keys', () => {
  const publicationId = newPublicationId();
  let identity: IdentityUnderTest;

  beforeEach(async () => {
    identity = await startIdentity();
  });

  afterEach(() => identity?.close());

  it('signs new tokens with a rotated key, and verifies tokens of the old one until they expire', async () => {
    const before = (await registerCustomer(identity.bus, publicationId)).auth.accessToken;
    await identity.service.app.get(SigningKeysService).rotate();
    const after = (await registerCustomer(identity.bus, publicationId)).auth.accessToken;
    expect(kidOf(after)).not.toBe(kidOf(before));

    const jwks = await identity.bus.request(GetJwks, {});
    expect(jwks.keys.map((key) => key.kid)).toEqual([kidOf(after), kidOf(before)]);
    expect(() => verifyAccessToken(before, jwks)).not.toThrow();
    expect(() => verifyAccessToken(after, jwks)).not.toThrow();

    // Fifteen minutes on, the old key's last token has expired (plus a minute of skew): it is gone.
    identity.clock.advance(15 * 60_000);
    expect((await identity.bus.request(GetJwks, {})).keys).toHaveLength(2);
    identity.clock.advance(61_000);
    const later = await identity.bus.request(GetJwks, {});
    expect(later.keys.map((key) => key.kid)).toEqual([kidOf(after)]);
    expect(() => verifyAccessToken(before, later)).toThrow(/no key/);
  });

  it('rotates with `npm run identity:rotate-key`, and keeps private keys sealed', async () => {
    const before = (await registerCustomer(identity.bus, publicationId)).auth.accessToken;
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'identity:rotate-key'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: identity.databaseUrl, SIGNING_KEYS_KEY: identity.signingKeysKey, LOG_LEVEL: 'silent' },
    });
    const kid = /New signing key (\S+)\./.exec(stdout)?.[1];
    const after = (await registerCustomer(identity.bus, publicationId)).auth.accessToken;
    expect(kidOf(after)).toBe(kid);
    expect(kidOf(after)).not.toBe(kidOf(before));

    const sql = new Client({ connectionString: identity.databaseUrl });
    await sql.connect();
    try {
      const { rows } = await sql.query<{ private_key_pem: string }>('SELECT private_key_pem FROM identity.signing_keys');
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.private_key_pem).toMatch(/^v1\./);
        expect(row.private_key_pem).not.toContain('PRIVATE KEY');
      }
    } finally {
      await sql.end();
    }
  }, 60_000);
});
