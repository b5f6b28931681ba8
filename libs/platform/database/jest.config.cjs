const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'database',
  roots: ['<rootDir>/libs/platform/database'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
