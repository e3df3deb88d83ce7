module.exports = { displayName: 'bus', preset: '../../jest.preset.js', rootDir: __dirname };
