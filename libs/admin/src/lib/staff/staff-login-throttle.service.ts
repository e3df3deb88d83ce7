import { Injectable } from '@nestjs/common';
import { AttemptThrottle } from '@gatehouse/db';
import { DataSource } from 'typeorm';

/**
 * At most 10 failed password checks per staff email in 15 minutes, at sign-in and at accepting an
 * invitation alike, then 429 with `Retry-After` for that email whatever the password (as decisions
 * C4 does for customers): the per-IP limit alone lets an attacker with many addresses guess.
 */
@Injectable()
export class StaffLoginThrottle extends AttemptThrottle {
  constructor(dataSource: DataSource) {
    super(dataSource, { name: 'staff-login', attempts: 10, windowSeconds: 15 * 60, refusal: 'Too many failed sign-ins for this email.' });
  }
}
