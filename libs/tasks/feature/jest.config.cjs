const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'tasks-feature',
  roots: ['<rootDir>/libs/tasks/feature'],
};
