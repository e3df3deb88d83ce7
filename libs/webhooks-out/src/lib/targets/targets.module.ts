import { Module } from '@nestjs/common';
import { TargetPolicy } from './target-policy.service';

@Module({ providers: [TargetPolicy], exports: [TargetPolicy] })
export class TargetsModule {}
