import { Module } from '@nestjs/common';

/** The public routes of the webhooks-out feature, behind the gateway's edge guard. */
@Module({ controllers: [] })
export class WebhooksOutRoutesModule {}
