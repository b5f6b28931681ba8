const preset = require('../../../jest.preset.js');

module.exports = { ...preset, displayName: 'queue', roots: ['<rootDir>/libs/shared/queue'] };
