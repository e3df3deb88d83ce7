import { Module } from '@nestjs/common';
import { StaffModule } from '../staff/staff.module';
import { TeamHandler } from './team.handler';
import { TeamService } from './team.service';

@Module({ imports: [StaffModule], controllers: [TeamHandler], providers: [TeamService] })
export class TeamModule {}
