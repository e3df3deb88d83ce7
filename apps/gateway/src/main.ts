import { closeGatewayOnSignals, createGateway, GatewayConfig } from '@gatehouse/gateway';
import { ConfigError, loadConfig, runMain } from '@gatehouse/platform';

runMain(async () => {
  const config = loadConfig(GatewayConfig);
  if (!config.NATS_URL) {
    throw new ConfigError('Invalid configuration: NATS_URL is required to run the gateway on its own (npm start runs every service in one process without it)');
  }
  const app = await createGateway(config, { kind: 'nats', servers: config.NATS_URL.split(',') });
  await app.listen({ port: config.PORT, host: '0.0.0.0' });
  closeGatewayOnSignals(app, config);
});
