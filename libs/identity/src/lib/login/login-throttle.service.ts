import { Injectable } from '@nestjs/common';
import { AttemptThrottle } from '@gatehouse/db';
import { DataSource } from 'typeorm';

/**
 * Decisions C4: at most 10 failed logins per (publication, email) in 15 minutes; then every
 * attempt, right password or not, answers 429 until the window ends.
 */
@Injectable()
export class LoginThrottle extends AttemptThrottle {
  constructor(dataSource: DataSource) {
    super(dataSource, { name: 'customer-login', attempts: 10, windowSeconds: 15 * 60, refusal: 'Too many failed logins for this email.' });
  }
}
