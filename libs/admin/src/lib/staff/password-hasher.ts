import { Injectable, type OnModuleInit } from '@nestjs/common';
import { compare, hash } from 'bcrypt';
import { randomBytes } from 'node:crypto';
import { AdminConfig } from '../admin.config';

@Injectable()
export class PasswordHasher implements OnModuleInit {
  private dummyHash: string;

  constructor(private readonly config: AdminConfig) {}

  async onModuleInit(): Promise<void> {
    this.dummyHash = await this.hash(randomBytes(16).toString('hex'));
  }

  hash(password: string): Promise<string> {
    return hash(password, this.config.BCRYPT_COST);
  }

  /**
   * Without a stored hash (unknown email) the password is still compared, against a dummy hash of
   * the same cost, so the answer takes as long as for a wrong password and does not reveal who has an account.
   */
  async verify(password: string, storedHash: string | undefined): Promise<boolean> {
    const matches = await compare(password, storedHash ?? this.dummyHash);
    return matches && storedHash !== undefined;
  }
}
