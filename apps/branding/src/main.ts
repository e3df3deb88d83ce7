import { runStandaloneService } from '@gatehouse/bus';
import { brandingService } from '@gatehouse/branding';
import { runMain } from '@gatehouse/platform';

runMain(() => runStandaloneService(brandingService));
