// `npm test` runs every project's tests in one Jest run so one summary counts them all.
const { getJestProjectsAsync } = require('@nx/jest');

module.exports = async () => ({ projects: await getJestProjectsAsync(), passWithNoTests: true, testTimeout: 30_000 });
