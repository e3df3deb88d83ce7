import { runStandaloneService } from '@gatehouse/bus';
import { accessService } from '@gatehouse/access';
import { runMain } from '@gatehouse/platform';

runMain(() => runStandaloneService(accessService));
