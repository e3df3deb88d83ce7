module.exports = { displayName: 'elements', preset: '../../jest.preset.js', rootDir: __dirname };
