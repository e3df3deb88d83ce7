import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AppError, PasswordHasher as TimingSafeHasher } from '@gatehouse/platform';
import { IdentityConfig } from '../identity.config';

const MIN_PASSWORD_BYTES = 8;
// bcrypt ignores every byte after the 72nd, so a longer password would also match any other sharing its first 72 bytes.
const MAX_PASSWORD_BYTES = 72;

/** Customer passwords: bcrypt at BCRYPT_COST, 8 to 72 bytes, and an unknown account costs as much as a wrong password. */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private hasher: TimingSafeHasher;

  constructor(private readonly config: IdentityConfig) {}

  async onModuleInit(): Promise<void> {
    this.hasher = await TimingSafeHasher.withCost(this.config.BCRYPT_COST);
  }

  async hash(password: string): Promise<string> {
    if (!hasAllowedLength(password)) {
      throw AppError.invalid('password', `must be ${MIN_PASSWORD_BYTES} to ${MAX_PASSWORD_BYTES} bytes of UTF-8`);
    }
    return this.hasher.hash(password);
  }

  async verify(password: string, passwordHash: string | null): Promise<boolean> {
    return (await this.hasher.verify(password, passwordHash)) && hasAllowedLength(password);
  }
}

function hasAllowedLength(password: string): boolean {
  const bytes = Buffer.byteLength(password, 'utf8');
  return bytes >= MIN_PASSWORD_BYTES && bytes <= MAX_PASSWORD_BYTES;
}
