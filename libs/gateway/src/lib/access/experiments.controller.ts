import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccessRequests, type Page, type ExperimentView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { CreateExperimentDto, UpdateExperimentDto } from './dtos/experiments.dto';
import { PageQueryDto } from '../edge/page-query.dto';
import { ExperimentViewDto, ExperimentPageDto } from './dtos/access-views.dto';

const INVALID = '`validation_failed` naming the field: `paywallId` of no paywall of yours, weights adding up to 0, a config override that does not suit the paywall';

@ApiTags('admin experiments')
@Controller('admin/experiments')
export class ExperimentsController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The publication's experiments, newest first." })
  @ApiOkResponse({ type: ExperimentPageDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a bad `limit` or `cursor`' })
  list(@Caller() caller: Principal, @Query() page: PageQueryDto): Promise<Page<ExperimentView>> {
    return this.bus.request(AccessRequests.ListExperiments, { publicationId: sessionOf(caller).publicationId, ...page });
  }

  @Post()
  @Auth('session')
  @ApiOperation({ summary: 'Create a draft experiment on a paywall (decisions H4).' })
  @ApiCreatedResponse({ type: ExperimentViewDto })
  @ApiResponse({ status: 400, description: INVALID })
  create(@Caller() caller: Principal, @Body() body: CreateExperimentDto): Promise<ExperimentView> {
    return this.bus.request(AccessRequests.CreateExperiment, { publicationId: sessionOf(caller).publicationId, experiment: body });
  }

  @Get(':id')
  @Auth('session')
  @ApiOperation({ summary: 'One experiment.' })
  @ApiOkResponse({ type: ExperimentViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  get(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<ExperimentView> {
    return this.bus.request(AccessRequests.GetExperiment, { publicationId: sessionOf(caller).publicationId, experimentId: id });
  }

  @Patch(':id')
  @Auth('session')
  @ApiOperation({ summary: 'Rename an experiment, or change the variants of a draft.' })
  @ApiOkResponse({ type: ExperimentViewDto })
  @ApiResponse({ status: 400, description: INVALID })
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 409, description: '`conflict`: the variants of a running or stopped experiment' })
  update(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() body: UpdateExperimentDto): Promise<ExperimentView> {
    return this.bus.request(AccessRequests.UpdateExperiment, { publicationId: sessionOf(caller).publicationId, experimentId: id, changes: body });
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Delete a draft or stopped experiment.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 409, description: '`conflict`: it is running' })
  async delete(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.bus.request(AccessRequests.DeleteExperiment, { publicationId: sessionOf(caller).publicationId, experimentId: id });
  }

  @Post(':id/start')
  @HttpCode(200)
  @Auth('session')
  @ApiOperation({ summary: 'Start a draft: from the next access check, visitors of its paywall get their variant.' })
  @ApiOkResponse({ type: ExperimentViewDto })
  @ApiResponse({ status: 400, description: "`validation_failed`: a variant's config override no longer suits the paywall" })
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 409, description: '`conflict`: not a draft, or another experiment runs on the paywall' })
  start(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<ExperimentView> {
    return this.bus.request(AccessRequests.StartExperiment, { publicationId: sessionOf(caller).publicationId, experimentId: id });
  }

  @Post(':id/stop')
  @HttpCode(200)
  @Auth('session')
  @ApiOperation({ summary: 'Stop a running experiment: its paywall is shown as configured again.' })
  @ApiOkResponse({ type: ExperimentViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 409, description: '`conflict`: not running' })
  stop(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<ExperimentView> {
    return this.bus.request(AccessRequests.StopExperiment, { publicationId: sessionOf(caller).publicationId, experimentId: id });
  }
}
