import { accessService } from '@gatehouse/access';
import { runMain } from '@gatehouse/platform';
import { runStandaloneService } from '@gatehouse/runtime';

// `main migrate` runs the schema's migrations (the deployment's migration step, as the schema's owner) and exits.
runMain(() => runStandaloneService(accessService));
