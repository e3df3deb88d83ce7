import { createExamplePublisher } from '@gatehouse/example-publisher';

/**
 * The example publisher on its own: GATEHOUSE_URL, GATEHOUSE_PUBLISHABLE_KEY, GATEHOUSE_SECRET_KEY;
 * optional PUBLIC_ORIGIN (the site's origin behind a proxy), GATEHOUSE_WEBHOOK_SECRET, EXAMPLE_PORT
 * and HOST (the interface, 127.0.0.1 unless set).
 */
const required = (name: string): string => {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is required.`);
    process.exit(1);
  }
  return value;
};

const port = Number(process.env['EXAMPLE_PORT'] ?? 3100);
const host = process.env['HOST'] || '127.0.0.1';
createExamplePublisher({
  gatehouseUrl: required('GATEHOUSE_URL'),
  publishableKey: required('GATEHOUSE_PUBLISHABLE_KEY'),
  secretKey: required('GATEHOUSE_SECRET_KEY'),
  publicOrigin: process.env['PUBLIC_ORIGIN'] || undefined,
  webhookSecret: process.env['GATEHOUSE_WEBHOOK_SECRET'],
}).listen(port, host, () => console.log(`Example publisher: http://${host.includes(':') ? `[${host}]` : host}:${port}/ (set HOST to listen elsewhere)`));
