const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'console',
  roots: ['<rootDir>/apps/console'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
