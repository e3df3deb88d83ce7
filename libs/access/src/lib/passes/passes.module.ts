import { Module } from '@nestjs/common';
import { PassesService } from './passes.service';

@Module({ providers: [PassesService], exports: [PassesService] })
export class PassesModule {}
