const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'billing',
  roots: ['<rootDir>/apps/billing'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
