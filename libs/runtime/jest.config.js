module.exports = { displayName: 'runtime', preset: '../../jest.preset.js', rootDir: __dirname };
