const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'gateway',
  roots: ['<rootDir>/apps/gateway'],
};
