const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'billing-feature',
  roots: ['<rootDir>/libs/billing/feature'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
