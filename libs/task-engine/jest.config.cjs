const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'task-engine',
  roots: ['<rootDir>/libs/task-engine'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
