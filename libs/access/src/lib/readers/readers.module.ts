import { Module } from '@nestjs/common';
import { ReadersService } from './readers.service';
import { VisitCounter } from './visit-counter.service';

@Module({ providers: [ReadersService, VisitCounter], exports: [ReadersService, VisitCounter] })
export class ReadersModule {}
