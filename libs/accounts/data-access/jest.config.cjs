const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'accounts-data-access',
  roots: ['<rootDir>/libs/accounts/data-access'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
