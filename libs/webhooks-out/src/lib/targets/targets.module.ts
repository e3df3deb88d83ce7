import { Module } from '@nestjs/common';
import { TargetPolicy } from './target-policy';

@Module({ providers: [TargetPolicy], exports: [TargetPolicy] })
export class TargetsModule {}
