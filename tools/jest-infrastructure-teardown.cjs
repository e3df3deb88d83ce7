module.exports = () => require('./jest-infrastructure.cjs').teardown();
