import { Module } from '@nestjs/common';
import { PublicationsModule } from '../publications/publications.module';
import { StaffModule } from '../staff/staff.module';
import { SessionsHandler } from './sessions.handler';
import { SessionsService } from './sessions.service';

@Module({ imports: [StaffModule, PublicationsModule], controllers: [SessionsHandler], providers: [SessionsService] })
export class SessionsModule {}
