const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'gateway',
  roots: ['<rootDir>/apps/gateway'],

  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
