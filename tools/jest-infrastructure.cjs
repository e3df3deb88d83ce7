// Jest's globalSetup and globalTeardown: PostgreSQL, NATS and Redis from their URLs, or started
// with testcontainers when a URL is unset and a container engine answers (see
// libs/testing/src/lib/test-infrastructure.ts).
process.env.SWC_NODE_PROJECT ??= require('node:path').join(__dirname, '..', 'tsconfig.base.json');
require('@swc-node/register');
const { provideTestInfrastructure } = require('../libs/testing/src/lib/test-infrastructure.ts');

let teardown = async () => undefined;

module.exports = async function globalSetup() {
  teardown = await provideTestInfrastructure();
  globalThis.__gatehouseTestInfrastructureTeardown = teardown;
};
module.exports.teardown = () => (globalThis.__gatehouseTestInfrastructureTeardown ?? teardown)();
