module.exports = { displayName: 'example-publisher', preset: '../../jest.preset.js', rootDir: __dirname };
