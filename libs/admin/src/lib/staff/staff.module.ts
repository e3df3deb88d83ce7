import { Module } from '@nestjs/common';
import { PasswordHasher } from './password-hasher.service';
import { StaffLoginThrottle } from './staff-login-throttle.service';
import { StaffService } from './staff.service';

@Module({ providers: [StaffService, PasswordHasher, StaffLoginThrottle], exports: [StaffService, PasswordHasher, StaffLoginThrottle] })
export class StaffModule {}
