const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'task-worker',
  roots: ['<rootDir>/apps/task-worker'],
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
};
