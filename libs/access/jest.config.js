module.exports = { displayName: 'access', preset: '../../jest.preset.js', rootDir: __dirname };
