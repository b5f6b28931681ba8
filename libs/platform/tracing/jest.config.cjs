const preset = require('../../../jest.preset.js');

module.exports = { ...preset, displayName: 'tracing', roots: ['<rootDir>/libs/platform/tracing'] };
