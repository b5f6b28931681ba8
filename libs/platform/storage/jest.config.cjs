const preset = require('../../../jest.preset.js');

module.exports = { ...preset, displayName: 'storage', roots: ['<rootDir>/libs/platform/storage'] };
