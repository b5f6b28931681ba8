const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'outbound',
  roots: ['<rootDir>/libs/platform/outbound'],
};
