const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'tasks-feature',
  roots: ['<rootDir>/libs/tasks/feature'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
