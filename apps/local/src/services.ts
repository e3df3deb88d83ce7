import { accessService } from '@gatehouse/access';
import { adminService } from '@gatehouse/admin';
import { billingService } from '@gatehouse/billing';
import { brandingService } from '@gatehouse/branding';
import { identityService } from '@gatehouse/identity';
import type { ServiceDefinition } from '@gatehouse/platform';
import { webhooksOutService } from '@gatehouse/webhooks-out';

/** Every backend service, in the order they start. */
export const SERVICES: ServiceDefinition<any>[] = [identityService, adminService, accessService, billingService, webhooksOutService, brandingService];
