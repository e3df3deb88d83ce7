import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { STATS_INTERVALS, StatsRequests, type Stats, type StatsInterval } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { IsTimestamp } from '@gatehouse/platform';
import { IsIn, IsOptional } from 'class-validator';
import { EdgeCheckRecorder } from '../access/edge-check-recorder.service';
import { Auth } from '../edge/credentials';
import { DAY_MS, statsRange } from './stats-range';
import { StatsDto } from './stats-views.dto';
import { Caller, sessionOf, type Principal } from '../edge/principal';

/** At most this many buckets in one answer: a year by day, a month by hour. */
const MAX_RANGE_MS: Record<StatsInterval, number> = { day: 366 * DAY_MS, hour: 31 * DAY_MS };
const DEFAULT_RANGE_MS: Record<StatsInterval, number> = { day: 30 * DAY_MS, hour: 2 * DAY_MS };

export class StatsQueryDto {
  @ApiPropertyOptional({ description: 'ISO 8601 start, rounded down to its day or hour (UTC). Default: 30 days (day) or 48 hours (hour) before `to`.' })
  @IsOptional()
  @IsTimestamp()
  from?: string;

  @ApiPropertyOptional({ description: 'ISO 8601 end, exclusive. Default: now.' })
  @IsOptional()
  @IsTimestamp()
  to?: string;

  @ApiPropertyOptional({ enum: STATS_INTERVALS, default: 'day' })
  @IsOptional()
  @IsIn(STATS_INTERVALS)
  interval?: StatsInterval;
}

@ApiTags('admin stats')
@Controller('admin/stats')
export class StatsController {
  constructor(
    private readonly bus: BusClient,
    private readonly edgeChecks: EdgeCheckRecorder,
  ) {}

  @Get()
  @Auth('session')
  @ApiOperation({
    summary:
      'Access checks (granted/denied), paywall shown/dismissed/converted and conversion rate, new and cancelled subscriptions, active subscribers, MRR per currency; per paywall and per experiment variant with checkout conversion and its significance against the first variant.',
  })
  @ApiOkResponse({ type: StatsDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: `from` not before `to`, or a range over 366 days by day / 31 days by hour' })
  async stats(@Caller() caller: Principal, @Query() query: StatsQueryDto): Promise<Stats> {
    const interval = query.interval ?? 'day';
    const range = statsRange(query, DEFAULT_RANGE_MS[interval], MAX_RANGE_MS[interval], ` by ${interval}`);
    // The checks this gateway answered itself count before their figures are read.
    await this.edgeChecks.flush();
    return this.bus.request(StatsRequests.GetStats, {
      publicationId: sessionOf(caller).publicationId,
      ...range,
      interval,
    });
  }
}
