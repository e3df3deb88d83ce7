import { Controller } from '@nestjs/common';
import { AccessRequests, type Page, type ExperimentView, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { ExperimentsService } from './experiments.service';

const { ListExperiments, GetExperiment, CreateExperiment, UpdateExperiment, DeleteExperiment, StartExperiment, StopExperiment } = AccessRequests;

@Controller()
export class ExperimentsHandler {
  constructor(private readonly experiments: ExperimentsService) {}

  @Handles(ListExperiments)
  list({ publicationId, limit, cursor }: RequestOf<typeof ListExperiments>): Promise<Page<ExperimentView>> {
    return this.experiments.list(publicationId, { limit, cursor });
  }

  @Handles(GetExperiment)
  get({ publicationId, experimentId }: RequestOf<typeof GetExperiment>): Promise<ExperimentView> {
    return this.experiments.get(publicationId, experimentId);
  }

  @Handles(CreateExperiment)
  create({ publicationId, experiment }: RequestOf<typeof CreateExperiment>): Promise<ExperimentView> {
    return this.experiments.create(publicationId, experiment);
  }

  @Handles(UpdateExperiment)
  update({ publicationId, experimentId, changes }: RequestOf<typeof UpdateExperiment>): Promise<ExperimentView> {
    return this.experiments.update(publicationId, experimentId, changes);
  }

  @Handles(DeleteExperiment)
  delete({ publicationId, experimentId }: RequestOf<typeof DeleteExperiment>): Promise<{ deleted: true }> {
    return this.experiments.delete(publicationId, experimentId);
  }

  @Handles(StartExperiment)
  start({ publicationId, experimentId }: RequestOf<typeof StartExperiment>): Promise<ExperimentView> {
    return this.experiments.start(publicationId, experimentId);
  }

  @Handles(StopExperiment)
  stop({ publicationId, experimentId }: RequestOf<typeof StopExperiment>): Promise<ExperimentView> {
    return this.experiments.stop(publicationId, experimentId);
  }
}
