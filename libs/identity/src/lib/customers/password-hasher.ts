import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AppError } from '@gatehouse/platform';
import { compare, hash } from 'bcrypt';
import { randomBytes } from 'node:crypto';
import { IdentityConfig } from '../identity.config';

const MIN_PASSWORD_BYTES = 8;
// bcrypt ignores every byte after the 72nd, so a longer password would also match any other sharing its first 72 bytes.
const MAX_PASSWORD_BYTES = 72;

/** bcrypt at BCRYPT_COST, with the same cost paid whether or not there is a hash to compare against. */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private dummyHash: string;

  constructor(private readonly config: IdentityConfig) {}

  async onModuleInit(): Promise<void> {
    // Compared against when the customer is unknown or has no password, so that answers as slowly as a wrong password.
    this.dummyHash = await hash(randomBytes(32).toString('base64url'), this.config.BCRYPT_COST);
  }

  async hash(password: string): Promise<string> {
    if (!hasAllowedLength(password)) {
      throw new AppError('validation_failed', 'The request is invalid.', [
        { field: 'password', message: `must be ${MIN_PASSWORD_BYTES} to ${MAX_PASSWORD_BYTES} bytes of UTF-8` },
      ]);
    }
    return hash(password, this.config.BCRYPT_COST);
  }

  async verify(password: string, passwordHash: string | null): Promise<boolean> {
    const matches = await compare(password, passwordHash ?? this.dummyHash);
    return matches && passwordHash !== null && hasAllowedLength(password);
  }
}

function hasAllowedLength(password: string): boolean {
  const bytes = Buffer.byteLength(password, 'utf8');
  return bytes >= MIN_PASSWORD_BYTES && bytes <= MAX_PASSWORD_BYTES;
}
