// `npm test` runs every project's tests in one Jest run so one summary counts them all.
const { getJestProjectsAsync } = require('@nx/jest');

module.exports = async () => ({
  projects: await getJestProjectsAsync(),
  passWithNoTests: true,
  testTimeout: 30_000,
  // PostgreSQL, NATS and Redis: from DATABASE_URL, NATS_URL and REDIS_URL, or in containers when unset and an engine answers.
  globalSetup: '<rootDir>/tools/jest-infrastructure.cjs',
  globalTeardown: '<rootDir>/tools/jest-infrastructure-teardown.cjs',
});
