module.exports = { displayName: 'platform', preset: '../../jest.preset.js', rootDir: __dirname };
