import { Module } from '@nestjs/common';
import { ImportRunner } from './import-runner.service';
import { ImportsHandler } from './imports.handler';
import { ImportsService } from './imports.service';
import { SubscriberExportService } from './subscriber-export.service';

@Module({ controllers: [ImportsHandler], providers: [ImportsService, ImportRunner, SubscriberExportService] })
export class ImportsModule {}
