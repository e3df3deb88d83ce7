import { runStandaloneService } from '@gatehouse/bus';
import { billingService } from '@gatehouse/billing';
import { runMain } from '@gatehouse/platform';

runMain(() => runStandaloneService(billingService));
