// Whole-system tests: the gateway and services as separate Nest applications over the real NATS
// and PostgreSQL, and `npm start` itself.
module.exports = { displayName: 'e2e', preset: '../../jest.preset.js', rootDir: __dirname };
