const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'webhook-dispatcher',
  roots: ['<rootDir>/apps/webhook-dispatcher'],
  // standardwebhooks depends on ESM-only @stablelib/* packages: transform them for Jest.
  transformIgnorePatterns: ['/node_modules/(?!@stablelib/)'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
