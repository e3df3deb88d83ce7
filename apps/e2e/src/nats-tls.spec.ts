import { JetStreamEventTransport, natsConnectionOptions, NatsRequestClient, natsTransportFromConfig, type NatsEndpoint } from '@gatehouse/bus';
import { BusConfig, loadConfig } from '@gatehouse/platform';
import { uniqueNamespace } from '@gatehouse/testing';
import { connect } from 'nats';
import { TestCertificates } from './support/certificates';
import { PrivateNatsServer } from './support/processes';

jest.setTimeout(120_000);

/** One connection attempt with a process's options, failing instead of waiting for NATS to let it in. */
function connectOnce(endpoint: NatsEndpoint): Promise<unknown> {
  return connect({ ...natsConnectionOptions(endpoint, 'nats-tls-test'), waitOnFirstConnect: false, maxReconnectAttempts: 0, reconnect: false }).then((nc) => nc.close());
}

/**
 * A NATS whose certificate a private CA signed and which requires a user (docs/operations.md,
 * "NATS with TLS and a password"): reached with NATS_URL=tls://…, NATS_USER, NATS_PASSWORD and
 * NATS_CA_FILE, refused without them.
 */
describe('NATS over TLS with a private CA and a password', () => {
  const namespace = uniqueNamespace('natstls');
  const auth = { user: 'gatehouse', password: 'nats-tls-password' };
  let certificates: TestCertificates;
  let nats: PrivateNatsServer;
  let endpoint: NatsEndpoint;

  beforeAll(async () => {
    certificates = await TestCertificates.create();
    nats = await PrivateNatsServer.start({ tls: { certFile: certificates.serverCertFile, keyFile: certificates.serverKeyFile }, auth });
    const config = loadConfig(BusConfig, { NATS_URL: nats.url, NATS_USER: auth.user, NATS_PASSWORD: auth.password, NATS_CA_FILE: certificates.caFile });
    endpoint = natsTransportFromConfig({ ...config, NATS_URL: nats.url });
  });

  afterAll(async () => {
    await nats?.destroy();
    certificates?.destroy();
  });

  it('carries events and requests with the configured user and CA bundle', async () => {
    const events = await JetStreamEventTransport.connect(endpoint, namespace);
    const client = new NatsRequestClient(endpoint, namespace);
    try {
      expect(events.isConnected()).toBe(true);
      await client.connect();
      // A message through NATS back to this connection: the request path works end to end.
      expect(await client.probe()).toBe(true);
    } finally {
      await client.close();
      await events.close();
    }
  });

  it('is refused without the CA bundle, and without the password', async () => {
    await expect(connectOnce({ ...endpoint, caFile: undefined })).rejects.toThrow(/unable to verify the first certificate|self[- ]signed/);
    await expect(connectOnce({ ...endpoint, password: 'wrong' })).rejects.toThrow(/Authorization Violation/i);
  });
});
