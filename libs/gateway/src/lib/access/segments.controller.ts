import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccessRequests, type Page, type SegmentView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { PageQueryDto } from '../edge/page-query.dto';
import { CreateSegmentDto, UpdateSegmentDto } from './dtos/segments.dto';
import { SegmentViewDto, SegmentPageDto } from './dtos/access-views.dto';

const INVALID = '`validation_failed` naming the field, e.g. `conditions[0].operator` for an operator the attribute does not take';

@ApiTags('admin segments')
@Controller('admin/segments')
export class SegmentsController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The publication's segments, newest first." })
  @ApiOkResponse({ type: SegmentPageDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a bad `limit` or `cursor`' })
  list(@Caller() caller: Principal, @Query() page: PageQueryDto): Promise<Page<SegmentView>> {
    return this.bus.request(AccessRequests.ListSegments, { publicationId: sessionOf(caller).publicationId, ...page });
  }

  @Post()
  @Auth('session')
  @ApiOperation({ summary: 'Create a segment.' })
  @ApiCreatedResponse({ type: SegmentViewDto })
  @ApiResponse({ status: 400, description: INVALID })
  create(@Caller() caller: Principal, @Body() body: CreateSegmentDto): Promise<SegmentView> {
    return this.bus.request(AccessRequests.CreateSegment, { publicationId: sessionOf(caller).publicationId, segment: body });
  }

  @Get(':id')
  @Auth('session')
  @ApiOperation({ summary: 'One segment.' })
  @ApiOkResponse({ type: SegmentViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  get(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<SegmentView> {
    return this.bus.request(AccessRequests.GetSegment, { publicationId: sessionOf(caller).publicationId, segmentId: id });
  }

  @Patch(':id')
  @Auth('session')
  @ApiOperation({ summary: 'Change a segment; the next access check sees the change.' })
  @ApiOkResponse({ type: SegmentViewDto })
  @ApiResponse({ status: 400, description: INVALID })
  @ApiResponse({ status: 404, description: '`not_found`' })
  update(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() body: UpdateSegmentDto): Promise<SegmentView> {
    return this.bus.request(AccessRequests.UpdateSegment, { publicationId: sessionOf(caller).publicationId, segmentId: id, changes: body });
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Delete a segment no paywall uses.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 409, description: '`conflict`: a paywall uses it' })
  async delete(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.bus.request(AccessRequests.DeleteSegment, { publicationId: sessionOf(caller).publicationId, segmentId: id });
  }
}
