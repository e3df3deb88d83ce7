import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  CancellationRequests,
  type CancellationOptions,
  type CancellationReasonsView,
  type SaveAcceptance,
  type SaveOfferSetting,
  type WinBackSettingsView,
} from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { Idempotent } from '../edge/idempotency.service';
import { Caller, keyPublicationOf, sessionOf, type Principal } from '../edge/principal';
import {
  AcceptSaveDto,
  CancellationOptionsDto,
  CancellationOptionsQueryDto,
  CancellationReasonsDto,
  SaveAcceptanceDto,
  type SaveOfferSettingDto,
  WinBackSettingsChangeDto,
  WinBackSettingsDto,
} from './dtos/cancellation.dto';

const WHO =
  "With a secret key, any subscription of the publication; with a publishable key and a customer JWT, the reader's own only (another reader's answers 404, as an unknown id does).";

/** The cancellation flow of readers: the reasons to pick from and the save offer each brings for their subscription, and accepting one. */
@ApiTags('subscriptions')
@Controller('subscriptions')
export class CancellationController {
  constructor(private readonly bus: BusClient) {}

  @Get('cancellation-options')
  @Auth('secret-or-customer')
  @ApiOperation({
    summary: `The reasons a reader cancelling this subscription picks from (the publication's, in its order) and the save offer each brings, as it applies to this subscription; then accept one (\`POST /subscriptions/cancel/save\`) or cancel with the reason (\`POST /subscriptions/cancel\`). ${WHO}`,
  })
  @ApiOkResponse({ type: CancellationOptionsDto })
  @ApiResponse({ status: 404, description: '`not_found`: no such subscription (or not the reader\'s own)' })
  options(@Caller() caller: Principal, @Query() query: CancellationOptionsQueryDto): Promise<CancellationOptions> {
    return this.bus.request(CancellationRequests.Options, { ...query, publicationId: keyPublicationOf(caller), customerId: caller.customer?.customerId });
  }

  @Post('cancel/save')
  @HttpCode(200)
  @Auth('secret-or-customer')
  @Idempotent()
  @ApiOperation({
    summary: `Accept the save offer of the reason instead of cancelling: the discount applied to the subscription at the processor, the pause, or the switch to the cheaper price at the period end. Once per subscription. ${WHO}`,
  })
  @ApiOkResponse({ type: SaveAcceptanceDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 404, description: '`not_found`: no such subscription (or not the reader\'s own)' })
  @ApiResponse({ status: 409, description: '`conflict`: no save offer for this reason and subscription, one accepted already, a manual grant, a one-time purchase or an ended subscription' })
  @ApiResponse({ status: 502, description: '`processor_error`: the payment processor refused or failed; nothing changed' })
  accept(@Caller() caller: Principal, @Body() body: AcceptSaveDto): Promise<SaveAcceptance> {
    return this.bus.request(CancellationRequests.AcceptSave, { ...body, publicationId: keyPublicationOf(caller), customerId: caller.customer?.customerId });
  }
}

@ApiTags('admin subscriptions')
@Controller('admin')
export class AdminCancellationController {
  constructor(private readonly bus: BusClient) {}

  @Get('cancellation-reasons')
  @Auth('session')
  @ApiOperation({ summary: 'The reasons readers pick from when they cancel: label, shown or not, order, and the save offer of each.' })
  @ApiOkResponse({ type: CancellationReasonsDto })
  reasons(@Caller() caller: Principal): Promise<CancellationReasonsView> {
    return this.bus.request(CancellationRequests.GetReasons, { publicationId: sessionOf(caller).publicationId });
  }

  @Put('cancellation-reasons')
  @Auth('session')
  @ApiOperation({ summary: 'Replace the reasons: every reason once, in the order readers see them.' })
  @ApiOkResponse({ type: CancellationReasonsDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a reason missing or twice, a label too long, a save offer without its field, a trial offer, a one-time price' })
  @ApiResponse({ status: 404, description: '`not_found`: an offer or price not of the publication' })
  saveReasons(@Caller() caller: Principal, @Body() body: CancellationReasonsDto): Promise<CancellationReasonsView> {
    const reasons = body.reasons.map(({ reason, label, enabled, save }) => ({ reason, label, enabled, save: save && settingOf(save) }));
    return this.bus.request(CancellationRequests.SaveReasons, { publicationId: sessionOf(caller).publicationId, reasons });
  }

  @Get('win-back')
  @Auth('session')
  @ApiOperation({ summary: 'Win-back: whether former subscribers are emailed an offer, how many days after their cancellation took effect, and which offer.' })
  @ApiOkResponse({ type: WinBackSettingsDto })
  winBack(@Caller() caller: Principal): Promise<WinBackSettingsView> {
    return this.bus.request(CancellationRequests.GetWinBack, { publicationId: sessionOf(caller).publicationId });
  }

  @Put('win-back')
  @Auth('session')
  @ApiOperation({ summary: 'Change win-back (a field left out stays as it is). Once on, each cancellation whose day comes is written to once.' })
  @ApiOkResponse({ type: WinBackSettingsDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: days out of range, or turned on without an offer' })
  @ApiResponse({ status: 404, description: '`not_found`: an offer not of the publication' })
  saveWinBack(@Caller() caller: Principal, @Body() body: WinBackSettingsChangeDto): Promise<WinBackSettingsView> {
    return this.bus.request(CancellationRequests.SaveWinBack, {
      publicationId: sessionOf(caller).publicationId,
      ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
      ...(body.days === undefined ? {} : { days: body.days }),
      ...(body.offerId === undefined ? {} : { offerId: body.offerId }),
    });
  }
}

function settingOf(save: SaveOfferSettingDto): SaveOfferSetting {
  if (save.kind === 'discount') return { kind: 'discount', offerId: save.offerId as string };
  if (save.kind === 'pause') return { kind: 'pause', months: save.months as number };
  return { kind: 'plan_change', priceId: save.priceId as string };
}
