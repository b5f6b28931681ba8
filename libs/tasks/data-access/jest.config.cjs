const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'tasks-data-access',
  roots: ['<rootDir>/libs/tasks/data-access'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
