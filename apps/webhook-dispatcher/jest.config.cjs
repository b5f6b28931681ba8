const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'webhook-dispatcher',
  roots: ['<rootDir>/apps/webhook-dispatcher'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
