import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ACCESS_TOKEN_TTL_SECONDS, CUSTOMER_TOKEN_ALGORITHM, type Jwks, type PublicJwk } from '@gatehouse/contracts';
import { Clock, type SecretBox } from '@gatehouse/platform';
import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { DataSource, IsNull, type EntityManager, type FindOneOptions } from 'typeorm';
import { IdentitySecretsBox } from './identity-secrets-box.service';
import { SigningKey } from './signing-key.entity';

/** The key that signs: the newest one not yet retired. */
const SIGNING: FindOneOptions<SigningKey> = { where: { retiredAt: IsNull() }, order: { createdAt: 'DESC' } };
/** A replaced key still verifies until every token it signed has expired (plus a minute of clock skew). */
const VERIFIES_AFTER_REPLACEMENT_MS = (ACCESS_TOKEN_TTL_SECONDS + 60) * 1000;
const PEM = '-----BEGIN';

export interface ActiveSigningKey {
  kid: string;
  privateKey: KeyObject;
}

/**
 * ES256 key pairs for access tokens: the newest signs, the JWKS publishes every key whose tokens
 * may still be unexpired. Private halves are sealed with SIGNING_KEYS_KEY; `rotate` replaces the
 * signing key (`npm run identity:rotate-key`).
 */
@Injectable()
export class SigningKeysService implements OnModuleInit {
  private readonly box: SecretBox;

  constructor(
    private readonly dataSource: DataSource,
    secrets: IdentitySecretsBox,
    private readonly clock: Clock,
  ) {
    this.box = secrets.box;
  }

  async onModuleInit(): Promise<void> {
    await this.ensureActiveKey();
    await this.sealPlainKeys();
  }

  /** Creates the first key on first start; replicas starting together agree on one through a lock. */
  async ensureActiveKey(): Promise<SigningKey> {
    return this.dataSource.transaction(async (manager) => {
      await lockKeys(manager);
      return (await manager.findOne(SigningKey, SIGNING)) ?? manager.save(SigningKey, this.generate());
    });
  }

  /** A new signing key; the ones it replaces keep verifying until their last tokens expire. Returns the new kid. */
  async rotate(): Promise<string> {
    return this.dataSource.transaction(async (manager) => {
      await lockKeys(manager);
      const verifiesUntil = new Date(this.clock.now().getTime() + VERIFIES_AFTER_REPLACEMENT_MS);
      await manager.update(SigningKey, { retiredAt: IsNull() }, { retiredAt: verifiesUntil });
      return (await manager.save(SigningKey, this.generate())).kid;
    });
  }

  async activeKey(): Promise<ActiveSigningKey> {
    const key = (await this.dataSource.getRepository(SigningKey).findOne(SIGNING)) ?? (await this.ensureActiveKey());
    return { kid: key.kid, privateKey: createPrivateKey(this.open(key.privateKeyPem)) };
  }

  async jwks(): Promise<Jwks> {
    const rows: Array<{ public_jwk: PublicJwk }> = await this.dataSource.query(
      'SELECT public_jwk FROM signing_keys WHERE retired_at IS NULL OR retired_at > $1 ORDER BY created_at DESC',
      [this.clock.now()],
    );
    return { keys: rows.map((row) => row.public_jwk) };
  }

  /** Keys stored before sealing existed are sealed in place. */
  private async sealPlainKeys(): Promise<void> {
    const plain: Array<{ kid: string; private_key_pem: string }> = await this.dataSource.query(
      `SELECT kid, private_key_pem FROM signing_keys WHERE private_key_pem LIKE '${PEM}%'`,
    );
    for (const key of plain) {
      await this.dataSource.query('UPDATE signing_keys SET private_key_pem = $2 WHERE kid = $1', [key.kid, this.box.encrypt(key.private_key_pem)]);
    }
  }

  private open(stored: string): string {
    return stored.startsWith(PEM) ? stored : this.box.decrypt(stored);
  }

  private generate(): Partial<SigningKey> {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { crv, x, y } = publicKey.export({ format: 'jwk' }) as { crv: string; x: string; y: string };
    // RFC 7638 thumbprint: the kid is derived from the key itself.
    const kid = createHash('sha256').update(JSON.stringify({ crv, kty: 'EC', x, y })).digest('base64url');
    const publicJwk: PublicJwk = { kty: 'EC', crv, x, y, kid, alg: CUSTOMER_TOKEN_ALGORITHM, use: 'sig' };
    return {
      kid,
      algorithm: CUSTOMER_TOKEN_ALGORITHM,
      publicJwk,
      privateKeyPem: this.box.encrypt(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()),
      retiredAt: null,
    };
  }
}

async function lockKeys(manager: EntityManager): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtext('identity:signing-key'))`);
}
