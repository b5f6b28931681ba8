const preset = require('../../../jest.preset.js');

module.exports = { ...preset, displayName: 'config', roots: ['<rootDir>/libs/shared/config'] };
