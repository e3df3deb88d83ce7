module.exports = { displayName: 'gateway', preset: '../../jest.preset.js', rootDir: __dirname };
