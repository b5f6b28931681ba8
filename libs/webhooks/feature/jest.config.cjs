const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'webhooks-feature',
  roots: ['<rootDir>/libs/webhooks/feature'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
