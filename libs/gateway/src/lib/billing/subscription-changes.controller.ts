import { applyDecorators, Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { BillingRequests, type PlanChangePreview, type PlanChangeResult, type SubscriptionSettingsView, type SubscriptionView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { Idempotent } from '../edge/idempotency.service';
import { Caller, keyPublicationOf, sessionOf, type Principal } from '../edge/principal';
import { SubscriptionViewDto } from './dtos/billing-views.dto';
import { PauseDto, PlanChangeDto, PlanChangePreviewDto, PlanChangeResultDto, SubscriptionIdDto, SubscriptionSettingsChangeDto, SubscriptionSettingsDto } from './dtos/subscription-changes.dto';

const WHO =
  "With a secret key, any subscription of the publication; with a publishable key and a customer JWT, the reader's own only (another reader's answers 404, as an unknown id does).";
const REFUSALS: Array<[number, string]> = [
  [400, '`validation_failed`'],
  [404, '`not_found`: no such subscription (or not the reader\'s own), or no such price in the publication'],
  [409, '`conflict`: a manual grant, a one-time purchase or an ended subscription; an inactive price; no processor settings'],
  [502, '`processor_error`: the payment processor refused or failed; nothing changed'],
];
const Refusals = () => applyDecorators(...REFUSALS.map(([status, description]) => ApiResponse({ status, description })));

/** Plan changes and pauses (issue #27, items 1 and 3): readers act on their own subscription, servers on any of the publication's. */
@ApiTags('subscriptions')
@Controller('subscriptions')
export class SubscriptionChangesController {
  constructor(private readonly bus: BusClient) {}

  @Post('plan-change/preview')
  @HttpCode(200)
  @Auth('secret-or-customer')
  @ApiOperation({
    summary: `What switching to another price would do, in money and dates: for a change now, the payment processor's invoice preview with its proration lines; for one at the period end, that date and nothing charged before. Changes nothing. ${WHO}`,
  })
  @ApiOkResponse({ type: PlanChangePreviewDto })
  @Refusals()
  preview(@Caller() caller: Principal, @Body() body: PlanChangeDto): Promise<PlanChangePreview> {
    return this.bus.request(BillingRequests.PreviewPlanChange, { ...body, publicationId: keyPublicationOf(caller), customerId: caller.customer?.customerId });
  }

  @Post('plan-change')
  @HttpCode(200)
  @Auth('secret-or-customer')
  @Idempotent()
  @ApiOperation({
    summary: `Switch the subscription to another price: now, prorated and invoiced at once (an upgrade, by default), or at the period end (a downgrade, by default), until which nothing changes. \`subscription.updated\` carries the old price as \`previousPriceId\`. ${WHO}`,
  })
  @ApiOkResponse({ type: PlanChangeResultDto })
  @Refusals()
  change(@Caller() caller: Principal, @Body() body: PlanChangeDto): Promise<PlanChangeResult> {
    return this.bus.request(BillingRequests.ChangePlan, { ...body, publicationId: keyPublicationOf(caller), customerId: caller.customer?.customerId });
  }

  @Post('pause')
  @HttpCode(200)
  @Auth('secret-or-customer')
  @Idempotent()
  @ApiOperation({
    summary: `Pause collection for 1 to 3 months: nothing is charged for that time and the processor resumes by itself at \`pausedUntil\`. Whether the reader keeps access meanwhile is the publication's \`pausedAccess\` setting. Pausing a paused subscription sets the new end. Emits \`subscription.paused\`. ${WHO}`,
  })
  @ApiOkResponse({ type: SubscriptionViewDto })
  @Refusals()
  pause(@Caller() caller: Principal, @Body() body: PauseDto): Promise<SubscriptionView> {
    return this.bus.request(BillingRequests.PauseSubscription, { ...body, publicationId: keyPublicationOf(caller), customerId: caller.customer?.customerId });
  }

  @Post('resume')
  @HttpCode(200)
  @Auth('secret-or-customer')
  @Idempotent()
  @ApiOperation({ summary: `Resume a paused subscription now. Emits \`subscription.resumed\`; 409 \`conflict\` when it is not paused. ${WHO}` })
  @ApiOkResponse({ type: SubscriptionViewDto })
  @Refusals()
  resume(@Caller() caller: Principal, @Body() body: SubscriptionIdDto): Promise<SubscriptionView> {
    return this.bus.request(BillingRequests.ResumeSubscription, { ...body, publicationId: keyPublicationOf(caller), customerId: caller.customer?.customerId });
  }
}

@ApiTags('admin subscriptions')
@Controller('admin/subscription-settings')
export class AdminSubscriptionSettingsController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The publication's subscription settings: what a pause does to access, and how long a past_due subscriber keeps it." })
  @ApiOkResponse({ type: SubscriptionSettingsDto })
  get(@Caller() caller: Principal): Promise<SubscriptionSettingsView> {
    return this.bus.request(BillingRequests.GetSubscriptionSettings, { publicationId: sessionOf(caller).publicationId });
  }

  @Put()
  @Auth('session')
  @ApiOperation({ summary: 'Change the subscription settings (a field left out stays as it is); access checks follow at once.' })
  @ApiOkResponse({ type: SubscriptionSettingsDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  save(@Caller() caller: Principal, @Body() body: SubscriptionSettingsChangeDto): Promise<SubscriptionSettingsView> {
    return this.bus.request(BillingRequests.SaveSubscriptionSettings, {
      publicationId: sessionOf(caller).publicationId,
      ...(body.pausedAccess === undefined ? {} : { pausedAccess: body.pausedAccess }),
      ...(body.pastDueGraceDays === undefined ? {} : { pastDueGraceDays: body.pastDueGraceDays }),
    });
  }
}
