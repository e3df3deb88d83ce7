module.exports = { displayName: 'node-client', preset: '../../jest.preset.js', rootDir: __dirname };
