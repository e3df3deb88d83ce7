import { Module } from '@nestjs/common';
import { ReadersService } from './readers.service';

@Module({ providers: [ReadersService], exports: [ReadersService] })
export class ReadersModule {}
