import { runMain } from '@gatehouse/platform';
import { migrateStandalone } from '@gatehouse/runtime';
import { SERVICES } from './services';

// `npm run migrate`: the migration step on a bare machine. DATABASE_URL names the role owning the
// schemas (docs/operations.md); the services then run with their own roles.
runMain(() => migrateStandalone(SERVICES));
