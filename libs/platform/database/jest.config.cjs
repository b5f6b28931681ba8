const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'database',
  roots: ['<rootDir>/libs/platform/database'],
};
