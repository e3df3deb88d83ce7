import { natsTransportFromConfig } from '@gatehouse/bus';
import { gatewayEdge, GatewayConfig } from '@gatehouse/gateway';
import { ConfigError, loadConfig, runMain } from '@gatehouse/platform';
import { runStandaloneHttp } from '@gatehouse/runtime';

runMain(async () => {
  const config = loadConfig(GatewayConfig);
  if (!config.NATS_URL) {
    throw new ConfigError('Invalid configuration: NATS_URL is required to run the gateway on its own (npm start runs every service in one process without it)');
  }
  await runStandaloneHttp('gateway', { config, transport: natsTransportFromConfig({ ...config, NATS_URL: config.NATS_URL }), edge: gatewayEdge });
});
