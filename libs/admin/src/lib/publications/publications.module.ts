import { Module } from '@nestjs/common';
import { PublicationsHandler } from './publications.handler';
import { PublicationsService } from './publications.service';

@Module({ controllers: [PublicationsHandler], providers: [PublicationsService], exports: [PublicationsService] })
export class PublicationsModule {}
