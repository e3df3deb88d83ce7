import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { Jwks, PublicJwk } from '@gatehouse/contracts';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { SigningKey } from './signing-key.entity';

export const SIGNING_ALGORITHM = 'ES256';

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
      const active = await manager.findOne(SigningKey, { where: { retiredAt: IsNull() }, order: { createdAt: 'DESC' } });
      return active ?? manager.save(SigningKey, generateSigningKey());
    });
  }

  async jwks(): Promise<Jwks> {
    const keys = await this.dataSource.getRepository(SigningKey).find({ where: { retiredAt: IsNull() }, order: { createdAt: 'DESC' } });
    return { keys: keys.map((k) => k.publicJwk) };
  }
}

function generateSigningKey(): Partial<SigningKey> {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { crv, x, y } = publicKey.export({ format: 'jwk' }) as { crv: string; x: string; y: string };
  // RFC 7638 thumbprint: the kid is derived from the key itself.
  const kid = createHash('sha256').update(JSON.stringify({ crv, kty: 'EC', x, y })).digest('base64url');
  const publicJwk: PublicJwk = { kty: 'EC', crv, x, y, kid, alg: SIGNING_ALGORITHM, use: 'sig' };
  return {
    kid,
    algorithm: SIGNING_ALGORITHM,
    publicJwk,
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    retiredAt: null,
  };
}
