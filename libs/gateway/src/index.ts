export * from './lib/gateway-edge';
export * from './lib/gateway.config';
export * from './lib/gateway.module';
export * from './lib/edge/credentials';
export * from './lib/edge/principal';
export { dashboardDirectory, DASHBOARD_PATH } from './lib/dashboard/dashboard-assets';
export { API_TYPES_FILE, apiTypesOf } from './lib/edge/api-types';
export { EdgeCheckRecorder } from './lib/access/edge-check-recorder.service';
