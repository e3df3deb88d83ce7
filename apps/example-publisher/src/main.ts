import { createExamplePublisher } from '@gatehouse/example-publisher';

/** The example publisher on its own: GATEHOUSE_URL, GATEHOUSE_PUBLISHABLE_KEY, GATEHOUSE_SECRET_KEY, optional GATEHOUSE_WEBHOOK_SECRET and EXAMPLE_PORT. */
const required = (name: string): string => {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is required.`);
    process.exit(1);
  }
  return value;
};

const port = Number(process.env['EXAMPLE_PORT'] ?? 3100);
createExamplePublisher({
  gatehouseUrl: required('GATEHOUSE_URL'),
  publishableKey: required('GATEHOUSE_PUBLISHABLE_KEY'),
  secretKey: required('GATEHOUSE_SECRET_KEY'),
  webhookSecret: process.env['GATEHOUSE_WEBHOOK_SECRET'],
}).listen(port, () => console.log(`Example publisher: http://localhost:${port}/`));
