const preset = require('../../../jest.preset.js');

module.exports = { ...preset, displayName: 'errors', roots: ['<rootDir>/libs/shared/errors'] };
