import { Injectable } from '@nestjs/common';
import { AppError, Clock } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { PasswordHasher } from './password-hasher.service';
import { StaffLoginThrottle } from './staff-login-throttle.service';
import { normaliseEmail, Staff } from './staff.entity';

export interface StaffDraft {
  email: string;
  name: string;
  password: string;
}

@Injectable()
export class StaffService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly passwords: PasswordHasher,
    private readonly throttle: StaffLoginThrottle,
  ) {}

  async anyExists(manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    return manager.exists(Staff);
  }

  async register(draft: StaffDraft, manager: EntityManager = this.dataSource.manager): Promise<Staff> {
    const staff = manager.create(Staff, {
      id: randomUUID(),
      email: normaliseEmail(draft.email),
      name: draft.name,
      passwordHash: await this.passwords.hash(draft.password),
      createdAt: this.clock.now(),
    });
    await manager.insert(Staff, staff);
    return staff;
  }

  /** One answer for an unknown email and a wrong password (decisions B2). */
  async authenticate(email: string, password: string): Promise<Staff> {
    const normalised = normaliseEmail(email);
    await this.throttle.count(normalised);
    const staff = await this.dataSource.getRepository(Staff).findOneBy({ email: normalised });
    const passwordMatches = await this.passwords.verify(password, staff?.passwordHash);
    if (!staff || !passwordMatches) throw new AppError('invalid_credentials', 'The email or password is wrong.');
    await this.throttle.succeeded(normalised);
    return staff;
  }

  async get(staffId: string): Promise<Staff> {
    return this.dataSource.getRepository(Staff).findOneByOrFail({ id: staffId });
  }
}
