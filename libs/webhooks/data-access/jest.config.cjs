const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'webhooks-data-access',
  roots: ['<rootDir>/libs/webhooks/data-access'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
