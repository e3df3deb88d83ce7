export { on, ReadModel, type ReadModelChanges, type ReadModelOptions, type ReadModelReaction } from './read-model';
export { ReadModels } from './read-models.service';
export { ReadYourWritesInterceptor } from './read-your-writes.interceptor';
