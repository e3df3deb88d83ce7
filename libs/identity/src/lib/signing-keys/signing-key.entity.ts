import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { PublicJwk } from '@gatehouse/contracts';

/** A key pair that signs customer access tokens. The private half never leaves identity. */
@Entity({ name: 'signing_keys' })
export class SigningKey {
  @PrimaryColumn({ type: 'text' })
  kid: string;

  @Column({ type: 'text' })
  algorithm: string;

  @Column({ name: 'public_jwk', type: 'jsonb' })
  publicJwk: PublicJwk;

  /** Sealed with SIGNING_KEYS_KEY (`v1.…`); a plain PEM from before sealing is sealed at start. */
  @Column({ name: 'private_key_pem', type: 'text' })
  privateKeyPem: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Set when replaced: the time its last tokens expire, until which the JWKS still serves it. */
  @Column({ name: 'retired_at', type: 'timestamptz', nullable: true })
  retiredAt: Date | null;
}
