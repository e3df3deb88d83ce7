import { Module } from '@nestjs/common';
import { WebhooksController } from './webhooks.controller';

/** The public routes of the webhooks-out feature, behind the gateway's edge guard. */
@Module({ controllers: [WebhooksController] })
export class WebhooksOutRoutesModule {}
