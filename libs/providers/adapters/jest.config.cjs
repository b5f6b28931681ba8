const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'providers',
  roots: ['<rootDir>/libs/providers/adapters'],
};
