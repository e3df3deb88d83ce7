import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CUSTOMER_TOKEN_ALGORITHM, type Jwks, type PublicJwk } from '@gatehouse/contracts';
import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { DataSource, IsNull, type FindOneOptions } from 'typeorm';
import { SigningKey } from './signing-key.entity';

/** Unretired keys, newest first: the first one signs new tokens, all of them verify. */
const ACTIVE_NEWEST_FIRST: FindOneOptions<SigningKey> = { where: { retiredAt: IsNull() }, order: { createdAt: 'DESC' } };

export interface ActiveSigningKey {
  kid: string;
  privateKey: KeyObject;
}

/** Keeps one active ES256 key pair for access tokens and publishes the public halves as a JWKS. */
@Injectable()
export class SigningKeysService implements OnModuleInit {
  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.ensureActiveKey();
  }

  /** Creates the first key on first start; replicas starting together agree on one through a lock. */
  async ensureActiveKey(): Promise<SigningKey> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('identity:signing-key'))`);
      const active = await manager.findOne(SigningKey, ACTIVE_NEWEST_FIRST);
      return active ?? manager.save(SigningKey, generateSigningKey());
    });
  }

  async activeKey(): Promise<ActiveSigningKey> {
    const key = (await this.dataSource.getRepository(SigningKey).findOne(ACTIVE_NEWEST_FIRST)) ?? (await this.ensureActiveKey());
    return { kid: key.kid, privateKey: createPrivateKey(key.privateKeyPem) };
  }

  async jwks(): Promise<Jwks> {
    const keys = await this.dataSource.getRepository(SigningKey).find(ACTIVE_NEWEST_FIRST);
    return { keys: keys.map((k) => k.publicJwk) };
  }
}

function generateSigningKey(): Partial<SigningKey> {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { crv, x, y } = publicKey.export({ format: 'jwk' }) as { crv: string; x: string; y: string };
  // RFC 7638 thumbprint: the kid is derived from the key itself.
  const kid = createHash('sha256').update(JSON.stringify({ crv, kty: 'EC', x, y })).digest('base64url');
  const publicJwk: PublicJwk = { kty: 'EC', crv, x, y, kid, alg: CUSTOMER_TOKEN_ALGORITHM, use: 'sig' };
  return {
    kid,
    algorithm: CUSTOMER_TOKEN_ALGORITHM,
    publicJwk,
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    retiredAt: null,
  };
}
