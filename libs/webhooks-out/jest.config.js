module.exports = { displayName: 'webhooks-out', preset: '../../jest.preset.js', rootDir: __dirname };
