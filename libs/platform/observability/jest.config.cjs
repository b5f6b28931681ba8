const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'observability',
  roots: ['<rootDir>/libs/platform/observability'],
};
