import { ApiProperty } from '@nestjs/swagger';
import type { CreatedWebhook, DeliveryAttemptStatus, DeliveryAttemptView, WebhookView, WebhookWithDeliveries } from '@gatehouse/contracts';

/* What the outbound webhook routes answer (spec 2.8; decisions G1). */

export class DeliveryAttemptViewDto implements DeliveryAttemptView {
  @ApiProperty({ format: 'uuid', description: 'The delivery id (`X-Service-Delivery`, `webhook-id`), the same on every attempt.' }) id: string;
  @ApiProperty({ example: 'subscription.created' }) event: string;
  @ApiProperty({ example: 1 }) attempt: number;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] satisfies DeliveryAttemptStatus[] }) status: DeliveryAttemptStatus;
  @ApiProperty({ type: Number, nullable: true, example: 200 }) responseCode: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The first 2 KiB of the response body.' }) responseBody: string | null;
  @ApiProperty({ type: Number, nullable: true }) durationMs: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the attempt got no answer (timeout, refused target, connection error).' }) error: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) dueAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) attemptedAt: string | null;
}

export class WebhookViewDto implements WebhookView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'https://news.example/hooks/gatehouse' }) url: string;
  @ApiProperty({ type: [String], example: ['subscription.created', 'subscription.cancelled'] }) events: string[];
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

class WebhookWithDeliveriesDto extends WebhookViewDto implements WebhookWithDeliveries {
  @ApiProperty({ type: [DeliveryAttemptViewDto], description: 'The last 20 attempts, newest first.' }) deliveries: DeliveryAttemptViewDto[];
}

export class WebhookListDto {
  @ApiProperty({ type: [WebhookWithDeliveriesDto] }) webhooks: WebhookWithDeliveriesDto[];
}

export class CreatedWebhookDto extends WebhookViewDto implements CreatedWebhook {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwJrvBhvVqQ8e0yLyGqO3n0F3hXkzXs=', description: '`whsec_` + 32 random bytes, base64. Shown here only.' })
  secret: string;
}
