import { Module } from '@nestjs/common';
import { PasswordHasher } from './password-hasher';
import { StaffLoginThrottle } from './staff-login-throttle';
import { StaffService } from './staff.service';

@Module({ providers: [StaffService, PasswordHasher, StaffLoginThrottle], exports: [StaffService, PasswordHasher, StaffLoginThrottle] })
export class StaffModule {}
