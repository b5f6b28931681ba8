const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'webhooks-feature',
  roots: ['<rootDir>/libs/webhooks/feature'],
  // standardwebhooks depends on ESM-only @stablelib/* packages: transform them for Jest
  // (Node itself loads them through require(esm)).
  transformIgnorePatterns: ['/node_modules/(?!@stablelib/)'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
