import { Module } from '@nestjs/common';
import { PasswordHasher } from './password-hasher';
import { StaffService } from './staff.service';

@Module({ providers: [StaffService, PasswordHasher], exports: [StaffService, PasswordHasher] })
export class StaffModule {}
