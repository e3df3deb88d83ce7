import { Module } from '@nestjs/common';
import { DomainProofsService } from './domain-proofs.service';
import { PublicationsHandler } from './publications.handler';
import { PublicationsService } from './publications.service';

@Module({ controllers: [PublicationsHandler], providers: [PublicationsService, DomainProofsService], exports: [PublicationsService] })
export class PublicationsModule {}
