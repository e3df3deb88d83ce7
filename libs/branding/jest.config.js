module.exports = { displayName: 'branding', preset: '../../jest.preset.js', rootDir: __dirname };
