const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'contracts',
  roots: ['<rootDir>/libs/shared/contracts'],
};
