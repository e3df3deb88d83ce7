import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { AccessRequests, TRACK_EVENTS_PER_REQUEST } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError, createValidationPipe } from '@gatehouse/platform';
import { Auth, RateLimit } from '../edge/credentials';
import { Caller, keyPublicationOf, type Principal } from '../edge/principal';
import { TrackEventBatchDto, TrackEventDto, TrackEventsAcceptedDto } from './dtos/track-events.dto';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

@ApiTags('access')
@ApiExtraModels(TrackEventDto, TrackEventBatchDto)
@Controller('events')
export class EventsController {
  /** The body is one event or a batch, so it is validated here once its shape is known. */
  private readonly validation = createValidationPipe();

  constructor(private readonly bus: BusClient) {}

  @Post()
  @HttpCode(202)
  @Auth('publishable')
  @RateLimit('events')
  @ApiOperation({
    summary: `Record track events: one event, or \`{events: [...]}\` with up to ${TRACK_EVENTS_PER_REQUEST}.`,
    description:
      'A customer JWT, when sent, identifies the customer for every event. One invalid event refuses the whole request and nothing is recorded. See docs/access.md for what each type records and emits.',
  })
  @ApiBody({ schema: { oneOf: [{ $ref: getSchemaPath(TrackEventDto) }, { $ref: getSchemaPath(TrackEventBatchDto) }] } })
  @ApiAcceptedResponse({ type: TrackEventsAcceptedDto })
  @ApiResponse({
    status: 400,
    description:
      '`validation_failed` naming the field (`events[i].field` in a batch): type, URL, `data` over 4 KiB, more than 50 events, an unknown paywall or variant, a `newsletter_subscribe` without a valid `data.email`, a `data_submit` for a data wall missing a required field or with a field not of its type (`data.<name>`, one error per field)',
  })
  @ApiResponse({ status: 403, description: "`url_not_in_publication`: an event's URL is not on a domain of the publication" })
  async track(@Caller() caller: Principal, @Body() body: unknown): Promise<{ accepted: number }> {
    if (!isObject(body)) throw new AppError('validation_failed', 'Send one event or {events: [...]}.');
    const batch = 'events' in body;
    const events = batch ? (await this.validated(TrackEventBatchDto, body)).events : [await this.validated(TrackEventDto, body)];
    return this.bus.request(AccessRequests.TrackEvents, {
      publicationId: keyPublicationOf(caller),
      domains: caller.apiKey?.domains ?? [],
      customerId: caller.customer?.customerId ?? null,
      events,
      batch,
    });
  }

  private validated<T extends object>(metatype: new () => T, body: unknown): Promise<T> {
    return this.validation.transform(body, { type: 'body', metatype });
  }
}
