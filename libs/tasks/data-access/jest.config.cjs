const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'tasks-data-access',
  roots: ['<rootDir>/libs/tasks/data-access'],
};
