import { Injectable, type OnModuleInit } from '@nestjs/common';
import { PasswordHasher as TimingSafeHasher } from '@gatehouse/platform';
import { AdminConfig } from '../admin.config';

/** Staff passwords: bcrypt at BCRYPT_COST; an unknown email costs as much as a wrong password. */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private hasher: TimingSafeHasher;

  constructor(private readonly config: AdminConfig) {}

  async onModuleInit(): Promise<void> {
    this.hasher = await TimingSafeHasher.withCost(this.config.BCRYPT_COST);
  }

  hash(password: string): Promise<string> {
    return this.hasher.hash(password);
  }

  verify(password: string, storedHash: string | undefined): Promise<boolean> {
    return this.hasher.verify(password, storedHash);
  }
}
