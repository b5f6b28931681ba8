const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'accounts-feature',
  roots: ['<rootDir>/libs/accounts/feature'],
};
