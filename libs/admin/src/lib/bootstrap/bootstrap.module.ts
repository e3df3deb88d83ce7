import { Module } from '@nestjs/common';
import { PublicationsModule } from '../publications/publications.module';
import { StaffModule } from '../staff/staff.module';
import { BootstrapService } from './bootstrap.service';

@Module({ imports: [StaffModule, PublicationsModule], providers: [BootstrapService] })
export class BootstrapModule {}
