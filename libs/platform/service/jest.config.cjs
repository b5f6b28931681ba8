const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'service',
  roots: ['<rootDir>/libs/platform/service'],
};
