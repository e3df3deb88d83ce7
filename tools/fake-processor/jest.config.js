module.exports = { displayName: 'fake-processor', preset: '../../jest.preset.js', rootDir: __dirname };
