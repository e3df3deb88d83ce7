import { runStandaloneService } from '@gatehouse/bus';
import { identityService } from '@gatehouse/identity';
import { runMain } from '@gatehouse/platform';

runMain(() => runStandaloneService(identityService));
