import { runStandaloneService } from '@gatehouse/bus';
import { webhooksOutService } from '@gatehouse/webhooks-out';
import { runMain } from '@gatehouse/platform';

runMain(() => runStandaloneService(webhooksOutService));
