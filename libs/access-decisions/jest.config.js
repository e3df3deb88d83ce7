module.exports = { displayName: 'access-decisions', preset: '../../jest.preset.js', rootDir: __dirname };
