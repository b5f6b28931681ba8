const preset = require('../../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'billing-feature',
  roots: ['<rootDir>/libs/billing/feature'],
};
