const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'accounts-data-access',
  roots: ['<rootDir>/libs/accounts/data-access'],
};
