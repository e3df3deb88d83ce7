import { runStandaloneService } from '@gatehouse/bus';
import { adminService } from '@gatehouse/admin';
import { runMain } from '@gatehouse/platform';

runMain(() => runStandaloneService(adminService));
