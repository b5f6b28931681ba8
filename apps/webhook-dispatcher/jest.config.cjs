const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'webhook-dispatcher',
  roots: ['<rootDir>/apps/webhook-dispatcher'],
};
